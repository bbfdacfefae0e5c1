import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Reads a streamed response to the end as a browser would, and measures what streaming it costs in memory.
 *
 * The budget figure is the live heap's growth: every 250 ms a full collection runs and the heap still in use is
 * read, so what is counted is what the export holds (a buffered export holds every row; a streamed one a batch),
 * not garbage the collector has not reached yet, which sampled heapUsed counted and which swung 20 MB from run to
 * run. The process's resident memory growth is printed beside it, the figure the operating system sees.
 * No --expose-gc needed: the flag is switched on here and `gc` taken from a fresh context.
 */
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export interface StreamFigures {
  bytes: number;
  lines: number;
  seconds: number;
  liveHeapGrowthMb: number;
  rssGrowthMb: number;
}

const MB = 1024 * 1024;

export async function readStream(send: () => Response | Promise<Response>): Promise<StreamFigures> {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  let heapPeak = heapBefore;
  let rssPeak = rssBefore;
  const sample = () => {
    gc();
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  };
  const sampler = setInterval(sample, 250);
  const started = performance.now();
  try {
    const res = await send();
    if (res.status !== 200) throw new Error(`the export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (const b of value) if (b === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    return { bytes, lines, seconds, liveHeapGrowthMb: (heapPeak - heapBefore) / MB, rssGrowthMb: (rssPeak - rssBefore) / MB };
  } finally {
    clearInterval(sampler);
  }
}
