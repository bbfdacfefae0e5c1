import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import sharp from "sharp";
import { BACKOFFICE, expectAccessible, jsEnabled, registerAndVerify, signIn, uniqueEmail } from "./helpers";

// Photos (issue 32): with JavaScript a phone's photo is scaled in the browser before it is sent, with its progress
// shown, and its preview is not blocked by the Content-Security-Policy; without JavaScript the original is sent and kept.

const violations: string[] = [];
test.beforeEach(({ page }) => {
  violations.length = 0;
  page.on("console", (msg) => {
    if (/Refused to|Content Security Policy|Content-Security-Policy/i.test(msg.text())) violations.push(msg.text());
  });
});
test.afterEach(() => expect(violations).toEqual([]));

let phonePhoto: Buffer | undefined;
/**
 * A phone camera's photo, made here (no binary fixture): 4000×3000 pixels stored sideways with EXIF orientation 6
 * ("turn 90° clockwise"), about 3.5 MB (noise barely compresses). Stored, its left half is red and its right half
 * blue; turned upright, red is on top and blue below.
 */
async function phoneJpeg() {
  if (phonePhoto) return phonePhoto;
  const [width, height] = [4000, 3000];
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 1;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5) * 40;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const n = noise();
      const red = x < width / 2;
      pixels[i] = Math.max(0, Math.min(255, (red ? 200 : 40) + n));
      pixels[i + 1] = Math.max(0, Math.min(255, 60 + n));
      pixels[i + 2] = Math.max(0, Math.min(255, (red ? 40 : 200) + n));
    }
  phonePhoto = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  expect(phonePhoto.length).toBeGreaterThan(3 * 1024 * 1024);
  return phonePhoto;
}

/** The photo's POST (a form's document post without JavaScript, the route's .data with it), with its body's size. */
function bodySizeOf(page: Page, path: RegExp) {
  return new Promise<number>((resolve) => {
    const seen = async (req: Request) => {
      if (req.method() !== "POST" || !path.test(new URL(req.url()).pathname)) return;
      page.off("request", seen);
      resolve(Number((await req.allHeaders())["content-length"] ?? req.postDataBuffer()?.length ?? 0));
    };
    page.on("request", seen);
  });
}

/** A slow phone connection's upload (Chromium's own throttling, with JavaScript only), or none: `restore` puts the network back. */
async function phoneNetwork(page: Page, upload: "slow" | "offline") {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const set = (offline: boolean, uploadThroughput: number) =>
    cdp.send("Network.emulateNetworkConditions", { offline, latency: offline ? 0 : 100, downloadThroughput: -1, uploadThroughput });
  await (upload === "offline" ? set(true, -1) : set(false, 16 * 1024));
  return { restore: () => set(false, -1) };
}

/** The photo the server kept: the 512 px square, turned upright (red on top, blue below), whichever way it was sent. */
async function expectKeptUpright(page: Page, img: Locator) {
  // Read in the page, with its session (Node does not resolve signup.localhost); evaluate runs without the page's JavaScript too.
  const base64 = await img.evaluate(async (el: HTMLImageElement) => {
    const bytes = new Uint8Array(await (await fetch(el.src)).arrayBuffer());
    return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
  });
  const { data, info } = await sharp(Buffer.from(base64, "base64")).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([512, 512]);
  const rgb = (x: number, y: number) => [...data.subarray((y * 512 + x) * info.channels, (y * 512 + x) * info.channels + 3)];
  const [top, bottom] = [rgb(256, 20), rgb(256, 490)];
  expect(top[0]).toBeGreaterThan(top[2] + 80); // red
  expect(bottom[2]).toBeGreaterThan(bottom[0] + 80); // blue
}

test("a member's phone photo: scaled before it is sent with its progress shown, previewed under the policy; the original without JavaScript", async ({
  page,
}) => {
  const js = jsEnabled(test.info());
  const original = await phoneJpeg();
  await registerAndVerify(page, `Pia Photo ${test.info().project.name}`, uniqueEmail("pia.photo", test.info()));
  await page.setViewportSize({ width: 390, height: 844 });

  await page.getByLabel("Take or choose a photo").setInputFiles({ name: "IMG_0412.jpg", mimeType: "image/jpeg", buffer: original });
  if (js) {
    // The preview is the chosen file from a blob: URL, and the browser really draws it (the policy allows blob: images).
    const preview = page.getByRole("img", { name: "The photo you are about to send" });
    await expect(preview).toHaveAttribute("src", /^blob:/);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  const sent = bodySizeOf(page, /^\/take-photo(\.data)?$/);
  const network = js ? await phoneNetwork(page, "slow") : undefined;
  await page.getByRole("button", { name: "Use this photo" }).click();
  if (js) {
    // Scaling a 12-megapixel photo on this shared machine can take a few seconds before the sending starts.
    const progress = page.getByRole("progressbar", { name: "Sending the photo…" });
    await expect(progress).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^\d{1,3}%$/)).toBeVisible();
    expect(Number(await progress.getAttribute("value"))).toBeLessThanOrEqual(100);
    await page.screenshot({ path: "tmp/photos-signup-sending.png" });
    // The form while sending, to the same accessibility rules as the sign-up journey's pages.
    await expectAccessible(page, { include: "form" });
  }
  const kept = page.getByRole("img", { name: "Your photo as the gym will see it" });
  await expect(kept).toBeVisible({ timeout: 30_000 });
  await network?.restore();
  await expect.poll(() => kept.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
  await page.screenshot({ path: `tmp/photos-signup-kept-${test.info().project.name}.png` });

  const size = await sent;
  if (js) expect(size).toBeLessThan(original.length / 10);
  else expect(size).toBeGreaterThan(original.length);
  await expectKeptUpright(page, kept);
});

test("with JavaScript, a photo that could not be sent (the connection dropped) says so and stays chosen; sent again, it is kept", async ({ page }) => {
  test.skip(!jsEnabled(test.info()), "without JavaScript the browser shows its own page for a dropped connection");
  await registerAndVerify(page, `Otto Offline ${test.info().project.name}`, uniqueEmail("otto.offline", test.info()));
  const input = page.getByLabel("Take or choose a photo");
  await input.setInputFiles({ name: "IMG_0414.jpg", mimeType: "image/jpeg", buffer: await phoneJpeg() });
  const network = await phoneNetwork(page, "offline");
  await page.getByRole("button", { name: "Use this photo" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The photo could not be sent. Check the connection and try again." })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole("heading", { name: "Add your photo" })).toBeVisible();
  expect(await input.evaluate((el: HTMLInputElement) => el.files?.length)).toBe(1);
  await network.restore();
  await page.getByRole("button", { name: "Use this photo" }).click();
  await expect(page.getByRole("img", { name: "Your photo as the gym will see it" })).toBeVisible({ timeout: 30_000 });
});

test("a file that is not a photo is sent as it is and refused with the form's message", async ({ page }) => {
  await registerAndVerify(page, `Nia Notaphoto ${test.info().project.name}`, uniqueEmail("nia.notaphoto", test.info()));
  await page.getByLabel("Take or choose a photo").setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not really a picture") });
  await page.getByRole("button", { name: "Use this photo" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Choose a JPEG, PNG or WebP image." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Add your photo" })).toBeVisible();
});

test("staff add a member's photo from the member page: scaled and sent with its progress; the original without JavaScript", async ({ page }) => {
  const js = jsEnabled(test.info());
  const original = await phoneJpeg();
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  await page.goto(`${BACKOFFICE}/members?status=active&gym=all&page=${js ? 2 : 3}`);
  await page.getByRole("table").locator("tbody tr").first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  // Hydrated: choosing a file sends it (the plain form's Upload button is gone).
  if (js) await expect(page.getByRole("button", { name: "Upload" })).toHaveCount(0);

  const sent = bodySizeOf(page, /^\/members\/\d+\/photo(\.data)?$/);
  const network = js ? await phoneNetwork(page, "slow") : undefined;
  await page.getByLabel(/Add a photo|Change photo/).setInputFiles({ name: "IMG_0413.jpg", mimeType: "image/jpeg", buffer: original });
  if (js) {
    await expect(page.getByRole("progressbar", { name: "Sending the photo…" })).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: "tmp/photos-backoffice-sending.png" });
  } else await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Photo updated")).toBeVisible({ timeout: 30_000 });
  await network?.restore();
  const img = page.locator("img[src*='/profile-picture']");
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(512);
  await page.screenshot({ path: `tmp/photos-backoffice-updated-${test.info().project.name}.png` });

  const size = await sent;
  if (js) expect(size).toBeLessThan(original.length / 10);
  else expect(size).toBeGreaterThan(original.length);
  await expectKeptUpright(page, img);
});
