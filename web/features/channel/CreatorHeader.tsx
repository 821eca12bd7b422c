import { Avatar } from '../../components/Avatar.tsx';
import './CreatorHeader.css';

interface CreatorHeaderProps {
  name: string;
  /** Shown under the name, e.g. "@slug"; left out on the profile, which shows only public fields. */
  handle?: string;
  bio: string;
  profileImageUrl: string | null;
  coverImageUrl: string | null;
  /** The id of the heading, for the page's aria-labelledby. */
  headingId: string;
  /** A Pro subscriber: a badge beside the name. */
  pro?: boolean;
}

/** Cover, avatar, name and bio at the top of a channel or profile page. */
export function CreatorHeader({ name, handle, bio, profileImageUrl, coverImageUrl, headingId, pro = false }: CreatorHeaderProps) {
  return (
    <header className="creator-header">
      <div className="creator-header__cover">
        {coverImageUrl && <img src={coverImageUrl} alt="" width={1200} height={300} decoding="async" />}
      </div>
      <div className="creator-header__identity">
        <span className="creator-header__avatar">
          <Avatar name={name} imageUrl={profileImageUrl} size={96} />
        </span>
        <div className="creator-header__text">
          <h1 id={headingId} className="creator-header__name">
            {name}
            {pro && (
              <span className="creator-header__badge" title="Pro subscriber">
                Pro
              </span>
            )}
          </h1>
          {handle && <p className="creator-header__handle">{handle}</p>}
          {bio && <p className="creator-header__bio">{bio}</p>}
        </div>
      </div>
    </header>
  );
}
