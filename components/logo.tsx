export function Logo({ className = 'h-7 w-7' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <rect x="4" y="3" width="19" height="25" rx="3" className="fill-brand-600" />
      <rect x="8" y="8" width="11" height="2" rx="1" fill="white" />
      <rect x="8" y="12" width="11" height="2" rx="1" fill="white" opacity="0.8" />
      <rect x="8" y="16" width="7" height="2" rx="1" fill="white" opacity="0.6" />
      <path
        d="M17 19h10a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2h-5l-3 2.5V28h-2a2 2 0 0 1-2-2v-5a2 2 0 0 1 2-2z"
        className="fill-emerald-500"
      />
    </svg>
  );
}
