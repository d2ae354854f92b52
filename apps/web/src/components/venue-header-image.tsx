import { useVenueConfig } from '../lib/venue-config';

/** The venue's header image (Venue Settings), at its configured height; decorative. */
export function VenueHeaderImage() {
  const { header_images_enabled, header_image_url, header_image_height } = useVenueConfig();
  if (!header_images_enabled || !header_image_url || header_image_height === 0) return null;
  return (
    <img
      src={header_image_url}
      alt=""
      className="d-block w-100 rounded mb-3"
      style={{ height: header_image_height, objectFit: 'cover' }}
    />
  );
}
