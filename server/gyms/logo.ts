import { eq } from "drizzle-orm";
import sharp from "sharp";
import { gym_logos, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid } from "../core/errors";
import { acceptImage, PIXEL_LIMIT } from "../core/images/accept";

/** A logo fits within this square; it keeps its shape (a wide logo stays wide) and its transparency. */
const SIDE = 512;

/**
 * POST /api/gyms/{id}/logo: judged by its content (JPEG, PNG or WebP, up to 10 MB), turned upright, fitted within
 * 512 px and re-encoded as WebP without its metadata. gyms.logo becomes its public address, versioned by the logo's
 * id, so the sidebar and the sign-up pages may cache it for good and still show a new one at once.
 */
export async function storeLogo(t: Tenant, gymId: number, gymUuid: string, collection: unknown, file: unknown) {
  if (collection !== "logo") throw invalid({ collection: ["Send collection=logo with the file"] });
  const input = await acceptImage(file, "logo");
  let output: { data: Buffer; info: sharp.OutputInfo };
  try {
    output = await sharp(input, { limitInputPixels: PIXEL_LIMIT })
      .rotate()
      .resize(SIDE, SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw invalid({ file: ["This image could not be read. Try another file."] });
  }
  await t.db.delete(gym_logos).where(t.where(gym_logos, eq(gym_logos.gym_id, gymId)));
  const [row] = await t.db
    .insert(gym_logos)
    .values(t.owned({ gym_id: gymId, content_type: "image/webp", width: output.info.width, height: output.info.height, bytes: output.data }))
    .returning({ id: gym_logos.id });
  await t.db.update(gyms).set({ logo: logoPath(gymUuid, row.id), updated_at: new Date() }).where(t.where(gyms, eq(gyms.id, gymId)));
}

export const logoPath = (gymUuid: string, logoId: string) => `/api/public/gyms/${gymUuid}/logo?v=${logoId.slice(0, 8)}`;

export async function readLogo(t: Tenant, gymId: number) {
  const [row] = await t.db.select().from(gym_logos).where(t.where(gym_logos, eq(gym_logos.gym_id, gymId))).limit(1);
  return row ?? null;
}
