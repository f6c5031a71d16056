/** Comptoir's mark (the same drawing as the app icons in public/icons): decorative, hidden from screen readers. */
export function AppMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#1f4e5f" />
      <path
        d="M43 21.5a15 15 0 1 0 0 21"
        fill="none"
        stroke="#ffffff"
        strokeWidth="7"
        strokeLinecap="round"
      />
      <rect x="15" y="52" width="34" height="4.5" rx="2.25" fill="#e9a23b" />
    </svg>
  );
}
