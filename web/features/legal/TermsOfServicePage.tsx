import { Link } from 'react-router';
import { LegalPage } from './LegalPage.tsx';
import { POLICY } from './policyFacts.ts';

export function TermsOfServicePage() {
  const mail = <a href={`mailto:${POLICY.contactEmail}`}>{POLICY.contactEmail}</a>;
  return (
    <LegalPage title="Terms of Service">
      <p>
        These terms govern your use of FrameMerch, a platform where creators upload videos and anyone can turn a frame
        of those videos into printed merchandise such as shirts, mugs, hats, bags, stickers and photo prints. By using
        FrameMerch you agree to these terms and to our <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>

      <h2>1. Accounts</h2>
      <p>
        Creators sign in with Google; customers may create merch with an email and password, and anyone may buy without
        an account. You are responsible for what happens under your account and must keep your sign-in secure. We may
        suspend accounts that break these terms.
      </p>

      <h2>2. Your content and content exclusivity</h2>
      <ul>
        <li>
          You may upload only videos, thumbnails and images that you created yourself or for which you hold every right
          needed, including rights in music, footage, artwork, trademarks and the likeness of the people shown. You keep
          ownership of what you upload.
        </li>
        <li>
          By uploading, you give FrameMerch a worldwide, non-exclusive licence to host, stream and display your videos
          and to print frames and thumbnails from them on merchandise sold through FrameMerch, for as long as the video
          stays published.
        </li>
        <li>
          Merchandise can be made only from videos hosted on FrameMerch. Screenshots of other websites, broadcasts or
          streaming services, or images unrelated to a FrameMerch video, are not accepted.
        </li>
        <li>
          We remove content on a valid rights complaint sent to {mail}, and close the accounts of repeat infringers.
        </li>
        <li>
          Content that is illegal, hateful, sexually explicit, violent, harassing or that exposes someone&apos;s private
          information is not allowed and may be removed without notice.
        </li>
      </ul>

      <h2>3. Orders and print-on-demand fulfilment</h2>
      <p>
        Every item is made to order by our print-on-demand fulfilment partner after you pay; nothing is held in stock.
        Orders ship within <strong>{POLICY.shippingTime}</strong>; delivery time after that depends on the carrier and
        destination. We currently ship to {POLICY.shippingCountries}. The shipping cost is calculated at checkout from
        your ZIP or postal code and country. Printed colours can differ slightly from what you see on screen, and a
        frame is printed at the resolution of the video it came from.
      </p>

      <h2>4. Payments</h2>
      <p>
        Prices are in US dollars. Payment is made on a hosted checkout page run by our payment processor; FrameMerch
        never sees or stores your full card number. Your order is confirmed once the payment succeeds. Any taxes or
        import duties due in your country are shown at checkout or charged by the carrier.
      </p>

      <h2>5. Refunds and returns</h2>
      <p>
        Refund requests must be made within <strong>{POLICY.refundWindow} of delivery</strong>. If an item arrives
        damaged, misprinted or defective, or never arrives, write to {mail} with your order number and, where possible,
        a photo; we will reprint it or refund you in full. Because every item is made for you, we cannot accept returns
        for a change of mind or a size you chose; check the size chart before ordering. Approved refunds go back to the
        original payment method.
      </p>

      <h2>6. Creator earnings</h2>
      <p>
        For each item sold from your video, you earn <strong>{POLICY.creatorShare} of the margin</strong>: the sale
        price minus production, fulfilment, shipping and payment processing costs. FrameMerch keeps the other{' '}
        {POLICY.houseShare} as its service fee. The creator plan is free, with no monthly fee. Earnings are paid
        monthly, on the 1st, once your pending balance reaches {POLICY.payoutMinimum} and a payout method is set up.
        Refunded orders are deducted from earnings.
      </p>

      <h2>7. SMS messages</h2>
      <p>
        Text messages about your orders are sent only if you opt in; consent is never a condition of purchase. Reply
        STOP to stop them and HELP for help. Message and data rates may apply. We never sell your phone number.
      </p>

      <h2>8. Data retention</h2>
      <p>
        Order records are kept for {POLICY.orderRetention}. When you delete your account, your personal data and
        videos are removed within {POLICY.deletedAccountRemoval}, and backups holding them are overwritten within{' '}
        {POLICY.backupRetention}. Details are in the <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>

      <h2>9. Ending your use</h2>
      <p>
        You may delete your account at any time from the account menu. We may suspend or close accounts that break
        these terms. Orders already placed are still fulfilled, and earnings already due are still paid.
      </p>

      <h2>10. Disclaimers and liability</h2>
      <p>
        FrameMerch is provided as it is. To the extent the law allows, we are not liable for indirect or consequential
        losses, and our total liability for any claim is limited to the amount you paid us in the twelve months before
        it. Nothing in these terms limits rights you have as a consumer that cannot be limited by contract.
      </p>

      <h2>11. Changes and contact</h2>
      <p>
        We may update these terms; the effective date above shows the current version, and continuing to use FrameMerch
        after a change means you accept it. Questions go to {mail}.
      </p>
    </LegalPage>
  );
}
