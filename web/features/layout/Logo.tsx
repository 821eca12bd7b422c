/** The FrameMerch mark: a film frame with a shirt inside; the same drawing as public/favicon.svg. */
export function Logo() {
  return (
    <svg className="logo-mark" width="30" height="30" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="1" y="4" width="30" height="24" rx="5" fill="#6d28d9" />
      <g fill="#ede9fe">
        <rect x="4" y="7" width="3" height="3" rx="0.6" />
        <rect x="4" y="14.5" width="3" height="3" rx="0.6" />
        <rect x="4" y="22" width="3" height="3" rx="0.6" />
        <rect x="25" y="7" width="3" height="3" rx="0.6" />
        <rect x="25" y="14.5" width="3" height="3" rx="0.6" />
        <rect x="25" y="22" width="3" height="3" rx="0.6" />
      </g>
      <path d="M12.5 9.5 10 11l-1.6 3 2.4 1.2.9-1.4V23h8.6v-9.2l.9 1.4 2.4-1.2L22 11l-2.5-1.5c-.6 1.2-2 2-3.5 2s-2.9-.8-3.5-2z" fill="#fff" />
    </svg>
  );
}
