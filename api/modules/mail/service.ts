/**
 * The emails a visitor can ask for (the creators' welcome, the subscription approval link), the
 * approval link's use, and the development mailbox's view of the outbox: all of it for admins,
 * one message through its secret link.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import type { MailMessage } from '../../../shared/schemas/mail.ts';
import { SUBSCRIPTION_APPROVAL_TTL_MS } from '../../../shared/schemas/subscriptions.ts';
import type { DB } from '../../platform/db/schema.ts';
import { queueMessage } from '../../platform/mail/outbox.ts';
import { ensureSetting } from '../../platform/settings/repository.ts';
import { appSecret } from '../../platform/settings/secrets.ts';
import { approvalAddress, approvalToken, verifyApprovalToken } from './approval-links.ts';
import { checkMessageToken, MAIL_LINKS_SECRET, messagePagePath } from './message-links.ts';
import { consumeApproval, insertApproval, messageById, newestMessages } from './repository.ts';

export interface MailDeps {
  db: Kysely<DB>;
  /** The site's origin, for the links in the emails. */
  publicUrl: string;
  /** The app's clock (app.clock): approval links expire on it, and the daily approval email goes by its day. */
  now: () => Date;
}

type OutboxRow = NonNullable<Awaited<ReturnType<typeof messageById>>>;

/** The mail module's operations; the approval links' key is made once and kept in the settings. */
export async function mailService({ db, publicUrl, now }: MailDeps) {
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
     * The approval link (approval-links.ts): a new approval, good for 24 hours on the app's
     * clock and once, is issued with the email, in the same transaction. One email a day per
     * address (the app clock's day): a repeat issues nothing and answers null; the link sent
     * earlier that day is still good until it is used, since it outlives the day. Answers the new
     * message's id.
     */
    async sendSubscriptionApproval(email: string): Promise<string | null> {
      const sentAt = now();
      const address = approvalAddress(email);
      const claim = {
        id: randomUUID(),
        email: address,
        // Whole seconds, as the token carries the expiry.
        expiresAt: new Date(Math.floor((sentAt.getTime() + SUBSCRIPTION_APPROVAL_TTL_MS) / 1000) * 1000),
      };
      const link = `${publicUrl}/approve-subscription?email=${encodeURIComponent(email)}&token=${approvalToken(approvalKey, claim)}`;
      return db.transaction().execute(async (trx) => {
        const id = await queueMessage(trx, {
          to: email,
          template: 'subscription_approval',
          subject: 'Confirm your FrameMerch subscription',
          text: `Please confirm that you want FrameMerch updates at this address:\n\n${link}\n\nThis link works once, for 24 hours. If you did not ask for this, ignore this email.\n`,
          dedupeKey: `subscription:${address}:${sentAt.toISOString().slice(0, 10)}`,
        });
        if (id !== null) await insertApproval(trx, claim);
        return id;
      });
    },

    /**
     * Uses an approval link: true when its token is signed for this address and the approval it
     * names was unused and unexpired (on the app's clock); it is then used, and the address
     * approved (again: no change). False for anything else, malformed input included.
     */
    async approveSubscription(email: unknown, token: unknown): Promise<boolean> {
      const claim = verifyApprovalToken(approvalKey, email, token);
      const at = now();
      if (!claim || claim.expiresAt <= at) return false;
      return consumeApproval(db, { id: claim.id, email: claim.email, now: at });
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
