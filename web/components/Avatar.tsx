import './Avatar.css';

interface AvatarProps {
  name: string;
  imageUrl: string | null | undefined;
  size?: number;
}

/**
 * A round picture, or the name's initial when there is none. The initial is drawn by CSS
 * from a data attribute so it never becomes part of the link or button text around it.
 */
export function Avatar({ name, imageUrl, size = 32 }: AvatarProps) {
  if (imageUrl) {
    return <img className="avatar" src={imageUrl} alt="" width={size} height={size} loading="lazy" decoding="async" />;
  }
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  return <span className={`avatar avatar--initial avatar--${size <= 32 ? 'small' : 'large'}`} data-initial={initial} aria-hidden="true" />;
}
