/** The image files we take (photos, logos): JPEG, PNG or WebP up to 10 MB. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The largest request carrying one: the file plus room for the multipart boundaries and other fields. */
export const IMAGE_BODY_LIMIT = IMAGE_MAX_BYTES + 64 * 1024;
