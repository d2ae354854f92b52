import { IMAGE_TYPES, type ImageType } from '@paddock/contract/images';

/** The image's type read from its bytes (magic numbers), or null when it is not one we take. */
export async function sniffImageType(bytes: Buffer): Promise<ImageType | null> {
  // Loaded with the first upload, not at start-up (decision 0049).
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(bytes);
  return found && found.mime in IMAGE_TYPES ? (found.mime as ImageType) : null;
}
