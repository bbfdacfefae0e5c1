/** The image files we take (photos, logos): JPEG, PNG or WebP up to 10 MB. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The largest request carrying one: the file plus room for the multipart boundaries and other fields. */
export const IMAGE_BODY_LIMIT = IMAGE_MAX_BYTES + 64 * 1024;
/**
 * The side of the square profile photo the server keeps (server/members/photo.ts). The photo pages scale a photo in
 * the browser so its shorter side is this before sending it: nothing the server keeps is lost, and the server still
 * picks the square.
 */
export const PHOTO_SIDE = 512;
