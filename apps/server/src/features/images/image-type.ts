import { fileTypeFromBuffer } from 'file-type';
import { IMAGE_TYPES, type ImageType } from '@paddock/contract/images';

/** The image's type read from its bytes (magic numbers), or null when it is not one we take. */
export async function sniffImageType(bytes: Buffer): Promise<ImageType | null> {
  const found = await fileTypeFromBuffer(bytes);
  return found && found.mime in IMAGE_TYPES ? (found.mime as ImageType) : null;
}
