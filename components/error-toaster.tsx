'use client';

import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { AppError } from '@/lib/errors';

interface Toast {
  id: number;
  code: string;
  message: string;
}

const ReportErrorContext = createContext<(error: unknown) => void>(() => {});

/** The one place errors are shown to the user: components call `useReportError()(error)`. */
export function ErrorToaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const report = useCallback(
    (error: unknown) => {
      const appError = error instanceof AppError ? error : new AppError('internal:api');
      if (!(error instanceof AppError)) console.error(error);
      const id = Date.now() + Math.random();
      setToasts((t) => [...t.slice(-3), { id, code: appError.code, message: appError.message }]);
      setTimeout(() => dismiss(id), 8000);
    },
    [dismiss],
  );
  const value = useMemo(() => report, [report]);
  return (
    <ReportErrorContext.Provider value={value}>
      {children}
      <section
        aria-live="assertive"
        className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role="alert"
            data-error-code={t.code}
            className="pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border border-red-200 bg-white px-4 py-3 text-sm shadow-lg"
          >
            <span aria-hidden className="mt-0.5 h-2 w-2 flex-none rounded-full bg-red-500" />
            <p className="flex-1 text-slate-800">{t.message}</p>
            <button
              type="button"
              onClick={() => dismiss(t.id)}
              className="text-slate-400 hover:text-slate-700"
              aria-label="Dismiss"
            >
              ×
            </button>
          </div>
        ))}
      </section>
    </ReportErrorContext.Provider>
  );
}

export function useReportError(): (error: unknown) => void {
  return useContext(ReportErrorContext);
}
