import sharp from "sharp";
import { ApiError, invalid } from "../errors";
import { IMAGE_BODY_LIMIT, IMAGE_MAX_BYTES } from "../../../domain/images";

/** The image files we take (photos, logos): JPEG, PNG or WebP up to 10 MB (domain/images.ts, which pages read too). */
export { IMAGE_BODY_LIMIT, IMAGE_MAX_BYTES };
const ACCEPTED = new Set(["jpeg", "png", "webp"]);
const WRONG_TYPE = "Choose a JPEG, PNG or WebP image";
/** A small file can decode to a huge image: at most 40 megapixels. */
export const PIXEL_LIMIT = 40_000_000;

/**
 * An uploaded image's bytes, once its type is judged from its content (sharp reads its header), never from its name
 * or the browser's type. `what` names it in the messages ("photo", "logo").
 */
export async function acceptImage(file: unknown, what: "photo" | "logo"): Promise<Buffer> {
  if (!(file instanceof File) || file.size === 0) throw invalid({ file: [`Choose a ${what} to upload`] });
  if (file.size > IMAGE_MAX_BYTES) throw new ApiError(413, `The ${what} is larger than 10 MB.`, "payload_too_large", { file: [`The ${what} is larger than 10 MB`] });
  const input = Buffer.from(await file.arrayBuffer());
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: PIXEL_LIMIT }).metadata()).format;
  } catch {
    throw invalid({ file: [WRONG_TYPE] });
  }
  if (!format || !ACCEPTED.has(format)) throw invalid({ file: [WRONG_TYPE] });
  return input;
}
