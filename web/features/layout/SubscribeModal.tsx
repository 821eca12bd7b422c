import { useEffect, useEffectEvent, useId, useState, type FormEvent } from 'react';
import { AUTH_MESSAGES, subscriptionEmailRoute } from '../../../shared/schemas/auth.ts';
import { Modal } from '../../components/Modal.tsx';
import { request } from '../../lib/api.ts';
import { isValidEmail, subscribeErrorText } from './subscribeErrorText.ts';
import './SubscribeModal.css';

/** Spec section 9: the modal closes 3 s after the link was sent. */
const SUCCESS_CLOSE_MS = 3_000;
const SEND_TIMEOUT_MS = 15_000;

type Phase = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; message: string } | { kind: 'error'; text: string };

/** Email updates: sends an approval link to the address given. Mount it to open it. */
export function SubscribeModal({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const id = useId();
  const sending = phase.kind === 'sending';

  const closeAfterSuccess = useEffectEvent(onClose);
  const sent = phase.kind === 'sent';
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(closeAfterSuccess, SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (!isValidEmail(email)) {
      setPhase({ kind: 'error', text: AUTH_MESSAGES.invalidEmail });
      return;
    }
    setPhase({ kind: 'sending' });
    try {
      const reply = await request(subscriptionEmailRoute, {
        body: { email: email.trim() },
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      setPhase({ kind: 'sent', message: reply.message });
    } catch (error) {
      setPhase({ kind: 'error', text: subscribeErrorText(error) });
    }
  };

  return (
    <Modal title="Get updates" onClose={onClose}>
      {phase.kind === 'sent' ? (
        <p className="subscribe__sent" role="status">
          {phase.message}
        </p>
      ) : (
        <form className="subscribe" noValidate onSubmit={(event) => void submit(event)} aria-busy={sending}>
          <p className="subscribe__intro">Enter your email and we will send you a link to approve FrameMerch updates.</p>
          <label className="subscribe__label" htmlFor={`${id}-email`}>
            Email
          </label>
          <input
            id={`${id}-email`}
            className="subscribe__input"
            type="email"
            name="email"
            autoComplete="email"
            required
            data-autofocus
            readOnly={sending}
            aria-invalid={phase.kind === 'error' || undefined}
            aria-describedby={phase.kind === 'error' ? `${id}-error` : undefined}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          {phase.kind === 'error' && (
            <p className="subscribe__error" id={`${id}-error`} role="alert">
              {phase.text}
            </p>
          )}
          <div className="subscribe__actions">
            <button type="button" className="button button--ghost" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={sending}>
              {sending ? 'Sending...' : 'Send Approval Link'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
