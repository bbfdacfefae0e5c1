import { HELD_ELSEWHERE, heldElsewhere } from "./custody";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { profile_pictures, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid } from "../core/errors";
import { acceptImage, IMAGE_BODY_LIMIT, IMAGE_MAX_BYTES, PIXEL_LIMIT } from "../core/images/accept";
import { PHOTO_SIDE } from "../../domain/images";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

export const PHOTO_MAX_BYTES = IMAGE_MAX_BYTES;
export const PHOTO_BODY_LIMIT = IMAGE_BODY_LIMIT;

/**
 * A new profile photo. The type is judged from the file's content (sharp reads its header), never from
 * its name or the browser's type; at most 10 MB and 40 megapixels (a small file can decode to a huge
 * image). It is turned upright, cut to a 512 px square around the middle and saved as WebP: sharp keeps
 * no metadata unless asked, so EXIF (location, camera) is dropped.
 */
export async function storePhoto(t: Tenant, userId: number, file: unknown) {
  // The photo is on the person's account, shown by every organisation that holds them (decision 0048).
  if (await heldElsewhere(t, userId)) throw invalid({ file: [HELD_ELSEWHERE] });
  const input = await acceptImage(file, "photo");
  let output: { data: Buffer; info: sharp.OutputInfo };
  try {
    output = await sharp(input, { limitInputPixels: PIXEL_LIMIT })
      .rotate()
      .resize(PHOTO_SIDE, PHOTO_SIDE, { fit: "cover", position: "attention" })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw invalid({ file: ["This image could not be read. Try another file."] });
  }
  const id = await t.db.transaction(async (tx) => {
    await tx.delete(profile_pictures).where(eq(profile_pictures.user_id, userId));
    const [row] = await tx
      .insert(profile_pictures)
      .values({ user_id: userId, content_type: "image/webp", width: output.info.width, height: output.info.height, bytes: output.data })
      .returning({ id: profile_pictures.id });
    await tx.update(users).set({ profile_picture: row.id, updated_at: new Date() }).where(eq(users.id, userId));
    return row.id;
  });
  // Members' own photos (sign-up) and staff's alike: the organisation hears of it (only a member's record is read).
  await recordWebhookEvent(t, "member.updated", userId, new Date());
  return id;
}

export async function readPhoto(t: Tenant, userId: number) {
  const [row] = await t.db.select().from(profile_pictures).where(eq(profile_pictures.user_id, userId)).limit(1);
  return row ?? null;
}
