import { useEffect, useRef, useState } from "react";
import { secondaryButton } from "./step-frame";

/**
 * The take-photo page's enhancement (issue 13): with JavaScript and a camera, a live view and a capture button; the
 * capture is put into the page's own file input, so the same form sends it. Without either, the file input (which
 * opens the phone's camera) is the whole page. A chosen or captured photo is previewed before it is sent.
 */
export function CameraCapture({ inputId, onPreview }: { inputId: string; onPreview: (url: string | null) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [available, setAvailable] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => setAvailable(typeof navigator !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia)), []);
  useEffect(() => {
    if (video.current && stream) video.current.srcObject = stream;
    return () => stream?.getTracks().forEach((track) => track.stop());
  }, [stream]);

  async function open() {
    setProblem(null);
    try {
      setStream(await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user", width: { ideal: 1024 } }, audio: false }));
    } catch {
      setProblem("The camera could not be opened here. Choose a photo with the button above instead.");
    }
  }

  function capture() {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext("2d")!.drawImage(v, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        const input = document.getElementById(inputId) as HTMLInputElement | null;
        if (!input) return;
        const files = new DataTransfer();
        files.items.add(new File([blob], "camera.jpg", { type: "image/jpeg" }));
        input.files = files.files;
        onPreview(URL.createObjectURL(blob));
        setStream(null);
      },
      "image/jpeg",
      0.9,
    );
  }

  if (!available) return null;
  return (
    <div className="space-y-2">
      {stream ? (
        <>
          {/* A live view of the person's own face: nothing to caption. */}
          <video ref={video} autoPlay playsInline muted className="aspect-square w-full rounded-lg bg-slate-900 object-cover" aria-label="Camera view" />
          <button type="button" onClick={capture} className={secondaryButton}>
            Capture
          </button>
        </>
      ) : (
        <button type="button" onClick={open} className={secondaryButton}>
          Use the camera here
        </button>
      )}
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
