/**
 * The emails a visitor can ask for (the creators' welcome, the subscription approval link) and
 * the development mailbox's view of the outbox: all of it for admins, one message through its
 * secret link.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import type { MailMessage } from '../../../shared/schemas/mail.ts';
import type { DB } from '../../platform/db/schema.ts';
import { queueMessage } from '../../platform/mail/outbox.ts';
import { ensureSetting } from '../../platform/settings/repository.ts';
import { appSecret } from '../../platform/settings/secrets.ts';
import { checkMessageToken, MAIL_LINKS_SECRET, messagePagePath } from './message-links.ts';
import { messageById, newestMessages } from './repository.ts';

export interface MailDeps {
  db: Kysely<DB>;
  /** The site's origin, for the links in the emails. */
  publicUrl: string;
}

type OutboxRow = NonNullable<Awaited<ReturnType<typeof messageById>>>;

/** The mail module's operations; the approval links' key is made once and kept in the settings. */
export async function mailService({ db, publicUrl }: MailDeps) {
  const { key: approvalKey } = await ensureSetting(db, 'mail.approval_key', () => ({ key: randomBytes(32).toString('base64url') }));
  const linkSecret = await appSecret(db, MAIL_LINKS_SECRET);

  const asMessage = (r: OutboxRow): MailMessage => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: String((r.payload as { text?: string }).text ?? ''),
    status: r.status,
    created_at: r.created_at.toISOString(),
    sent_at: r.sent_at ? r.sent_at.toISOString() : null,
    link: messagePagePath(linkSecret, r.id),
  });

  return {
    /** The new message's id, or null when this address already had its welcome. */
    async sendWelcome(email: string): Promise<string | null> {
      return queueMessage(db, {
        to: email,
        template: 'welcome',
        subject: 'Welcome to FrameMerch',
        text: `Welcome to FrameMerch!\n\nUpload your videos, and your viewers can turn any frame into merch. You earn ${CREATOR_SHARE_PERCENT}% of the margin on every item, paid monthly.\n\n${publicUrl}/\n`,
        dedupeKey: `welcome:${email.toLowerCase()}`,
      });
    },

    /**
     * The approval link is an HMAC of the address, so it needs no storage; one email a day per
     * address. Answers the new message's id, or null when today's was already sent.
     */
    async sendSubscriptionApproval(email: string): Promise<string | null> {
      const token = createHmac('sha256', approvalKey).update(email.toLowerCase()).digest('base64url');
      const link = `${publicUrl}/approve-subscription?email=${encodeURIComponent(email)}&token=${token}`;
      const day = new Date().toISOString().slice(0, 10);
      return queueMessage(db, {
        to: email,
        template: 'subscription_approval',
        subject: 'Confirm your FrameMerch subscription',
        text: `Please confirm that you want FrameMerch updates at this address:\n\n${link}\n\nIf you did not ask for this, ignore this email.\n`,
        dedupeKey: `subscription:${email.toLowerCase()}:${day}`,
      });
    },

    /** The message's own page (path and query), token included. */
    messageLink: (id: string): string => messagePagePath(linkSecret, id),

    /** The 50 newest messages of the outbox, as the development mailbox lists them to admins. */
    async outbox(): Promise<MailMessage[]> {
      return (await newestMessages(db, 50)).map(asMessage);
    },

    /** Whether the token is the one of this message's link. */
    linkOpens: (id: string, token: string | undefined): boolean => checkMessageToken(linkSecret, id, token),

    /** One message by id (callers check the link's token first), or undefined. */
    async message(id: string): Promise<MailMessage | undefined> {
      const row = await messageById(db, id);
      return row && asMessage(row);
    },
  };
}
