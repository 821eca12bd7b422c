import { useState } from 'react';
import './Avatar.css';

type ImageUrl = string | null | undefined;

interface AvatarProps {
  name: string;
  /** One picture, or several in order of preference: a picture that fails to load gives way to the next. */
  imageUrl: ImageUrl | readonly ImageUrl[];
  size?: number;
}

/**
 * A round picture, or the name's initial (the default avatar) when there is none or none
 * loads. The initial is drawn by CSS from a data attribute so it never becomes part of the
 * link or button text around it.
 */
export function Avatar({ name, imageUrl, size = 32 }: AvatarProps) {
  // Keyed by address, so a new list of pictures needs no reset.
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const candidates = (Array.isArray(imageUrl) ? imageUrl : [imageUrl]) as readonly ImageUrl[];
  const src = candidates.find((url): url is string => !!url && !failed.has(url));

  if (src) {
    return (
      <img
        key={src}
        className="avatar"
        src={src}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        // Identity providers' picture hosts may refuse requests that name another site.
        referrerPolicy="no-referrer"
        onError={() => setFailed((prev) => new Set(prev).add(src))}
      />
    );
  }
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  return <span className={`avatar avatar--initial avatar--${size <= 32 ? 'small' : size <= 48 ? 'large' : 'xl'}`} data-initial={initial} aria-hidden="true" />;
}
