'use client';

import { type ReactNode, useState } from 'react';
import { useReportError } from '@/components/error-toaster';
import { Button } from '@/components/ui/button';
import { Modal } from './modal';

export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; the dialog stays open (busy) until it settles, errors go to the error toaster. */
  onConfirm: () => Promise<void>;
}

/** A yes/no confirmation for destructive actions; focus starts on Cancel so Enter never deletes by accident. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose: () => void }) {
  const reportError = useReportError();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await request.onConfirm();
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
      onClose();
    }
  }

  return (
    <Modal
      title={request.title}
      description={request.body}
      onClose={() => {
        if (!busy) onClose();
      }}
      size="sm"
      testId="confirm-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy} data-autofocus>
            Cancel
          </Button>
          <button
            type="button"
            onClick={confirm}
            disabled={busy}
            className="inline-flex items-center justify-center rounded-md bg-red-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm transition-colors hover:bg-red-700 disabled:cursor-not-allowed disabled:bg-red-400"
          >
            {busy ? 'Working…' : request.confirmLabel}
          </button>
        </>
      }
    />
  );
}
