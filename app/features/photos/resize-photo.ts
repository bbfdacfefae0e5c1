import { PHOTO_SIDE } from "../../../domain/images";

/** JPEG quality of the scaled photo: the server encodes it once more (WebP), so a little above what it keeps. */
const QUALITY = 0.9;

/**
 * A photo scaled in the browser before it is sent (issue 32): a phone's 3–4 MB photo becomes about 100 KB. It is
 * turned upright by its EXIF orientation (createImageBitmap's imageOrientation; the JPEG made here carries no EXIF, so
 * the server's own turn does nothing more), scaled so its shorter side is the side the server keeps (never enlarged),
 * and made a JPEG on white (a PNG's transparency would turn black). The server still cuts the square, around what it
 * finds interesting, so the whole frame is sent.
 *
 * The original comes back when the browser cannot do this (no createImageBitmap or no imageOrientation: an old
 * browser; a HEIC it cannot decode; not an image at all, which the server then names) or when the result is no
 * smaller: the server takes the original as it does without JavaScript.
 */
export async function resizePhoto(file: File): Promise<File> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const scale = Math.min(1, PHOTO_SIDE / Math.min(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    if (!context) return file;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
    if (!jpeg || jpeg.size >= file.size) return file;
    return new File([jpeg], `${file.name.replace(/\.[^.]*$/, "") || "photo"}.jpg`, { type: "image/jpeg" });
  } catch {
    return file;
  }
}
