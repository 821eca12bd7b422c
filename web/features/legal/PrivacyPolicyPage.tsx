import { Link } from 'react-router';
import { LegalPage } from './LegalPage.tsx';
import { POLICY } from './policyFacts.ts';

export function PrivacyPolicyPage() {
  const mail = <a href={`mailto:${POLICY.contactEmail}`}>{POLICY.contactEmail}</a>;
  return (
    <LegalPage title="Privacy Policy">
      <p>
        FrameMerch is a video platform where creators publish videos and viewers turn a frame of those videos into
        printed merchandise. This policy explains what personal information we collect, why we collect it, who we share
        it with, how long we keep it and the choices you have. It applies to the FrameMerch website and to every order
        placed through it.
      </p>

      <h2>1. Information we collect</h2>
      <ul>
        <li>
          <strong>Account information.</strong> When you sign in with Google we receive your name, email address and
          profile picture. Creators may add a username, bio, avatar and cover image.
        </li>
        <li>
          <strong>Content you upload.</strong> Videos, thumbnails, titles and descriptions, and the screenshots and
          crops you make from videos on FrameMerch.
        </li>
        <li>
          <strong>Order information.</strong> The products you buy, the screenshot printed on them, your shipping name
          and address (including ZIP or postal code and country), and your email address for order updates.
        </li>
        <li>
          <strong>Payment information.</strong> Payments are taken on a hosted checkout page run by our payment
          processor. Your card number is entered there and never reaches or is stored by FrameMerch; we receive only a
          confirmation, the amount and the last digits of the card.
        </li>
        <li>
          <strong>Creator payout information.</strong> The payout method a creator sets up, such as a payout email
          address or bank details, and tax information where the law requires it. Bank account numbers are stored
          encrypted.
        </li>
        <li>
          <strong>Phone number.</strong> Only if you choose to receive SMS updates (see section 3).
        </li>
        <li>
          <strong>Usage information.</strong> Pages visited, videos watched (a view is counted once per browser
          session), device and browser type and IP address, used to run and protect the service. We use a session
          cookie to keep you signed in; your cart is kept in your own browser&apos;s storage.
        </li>
      </ul>

      <h2>2. How we use your information</h2>
      <ul>
        <li>To run your account, host and stream videos, and show creator pages.</li>
        <li>To print, pack and ship your order and to tell you about its progress.</li>
        <li>To calculate and pay creator earnings and to keep the accounting and tax records the law requires.</li>
        <li>To answer support requests, prevent fraud and abuse, and keep the service secure.</li>
        <li>To improve FrameMerch using aggregated statistics that do not identify you.</li>
      </ul>
      <p>We do not sell your personal information and we do not use it for advertising by third parties.</p>

      <h2>3. SMS messages and consent</h2>
      <p>
        SMS updates are strictly opt-in. The SMS consent box at checkout is unticked by default, and agreeing is not a
        condition of any purchase. If you opt in, we text you about your orders, such as confirmation, shipping and
        delivery notices. Message frequency depends on your orders; message and data rates may apply.
      </p>
      <ul>
        <li>
          Reply <strong>STOP</strong> to any message to opt out; we confirm once and send nothing further.
        </li>
        <li>
          Reply <strong>HELP</strong> for help, or write to {mail}.
        </li>
        <li>
          We never sell, rent or share your phone number or your SMS consent with third parties or affiliates for their
          marketing. Your number is passed only to the SMS delivery provider that sends our messages.
        </li>
      </ul>

      <h2>4. Who we share information with</h2>
      <ul>
        <li>
          <strong>Print-on-demand fulfilment partner:</strong> your shipping name and address, the items ordered and
          the image to print, so that your order can be produced and delivered.
        </li>
        <li>
          <strong>Payment processor:</strong> the details needed to take payment on its hosted checkout and to pay
          creators.
        </li>
        <li>
          <strong>Service providers</strong> that host our servers and storage and send our emails and SMS messages,
          bound by contract to use the data only for us.
        </li>
        <li>
          <strong>Creators</strong> see sales figures for their videos, never the buyer&apos;s name, address or contact
          details.
        </li>
        <li>
          <strong>Authorities</strong> when the law requires it, or to protect the rights and safety of our users.
        </li>
      </ul>

      <h2>5. Data retention</h2>
      <ul>
        <li>
          <strong>Orders</strong> and the transaction records behind them are kept for <strong>{POLICY.orderRetention}</strong>{' '}
          to meet tax and accounting obligations.
        </li>
        <li>
          <strong>Deleted accounts:</strong> when you delete your account, your profile, videos and other personal data
          are removed from our live systems within <strong>{POLICY.deletedAccountRemoval}</strong>.
        </li>
        <li>
          <strong>Deleted videos:</strong> when a creator deletes a video, or their account, the merchandise made from
          it is taken off sale at once and the screenshots taken from it are no longer shown to anyone. Orders already
          placed are still printed from a private copy of their screenshot, which we delete as soon as those orders
          have gone to the print shop (or been cancelled or refunded).
        </li>
        <li>
          <strong>Backups</strong> are kept for <strong>{POLICY.backupRetention}</strong> and then overwritten, so
          deleted data disappears from backups within that time.
        </li>
        <li>Server logs used for security are kept only as long as needed to investigate abuse.</li>
      </ul>

      <h2>6. Your rights and choices</h2>
      <p>
        You can see and edit your profile at any time, and delete your account from the account menu (Delete Account).
        You may also ask us for a copy of your data, to correct it, or to delete it by writing to {mail}. Depending on
        where you live you may have further rights, such as objecting to processing or complaining to your data
        protection authority; we answer every request within 30 days.
      </p>

      <h2>7. Security</h2>
      <p>
        Traffic is encrypted in transit, passwords are never stored in plain text, payment card data never touches our
        servers, and access to personal data inside FrameMerch is limited to the staff who need it.
      </p>

      <h2>8. Children</h2>
      <p>
        FrameMerch is not directed to children under 13 and we do not knowingly collect their personal information. If
        you believe a child has given us personal information, contact us and we will delete it.
      </p>

      <h2>9. Changes and contact</h2>
      <p>
        If we change this policy we will update the effective date above and, for significant changes, tell signed-in
        users before the change applies. Questions about privacy go to {mail}. See also our{' '}
        <Link to="/terms-of-service">Terms of Service</Link>.
      </p>
    </LegalPage>
  );
}
