import { AlertIcon } from '@/components/icons';

/** What a cited passage marked `instructionLike` means, in plain words (chat source panel and share page). */
export const INSTRUCTION_LIKE_TEXT =
  'This passage contains text that reads like instructions to an AI. It is shown as what the document says; DocuChat did not follow it.';

/** The mark on a cited passage that holds instruction-like text (retrieved-flags.ts: used as data, never obeyed). */
export function InstructionLikeNote() {
  return (
    <p
      role="note"
      className="mb-3 flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900 ring-1 ring-amber-200"
      data-testid="instruction-like-note"
    >
      <AlertIcon className="mt-0.5 h-3.5 w-3.5 flex-none text-amber-600" />
      <span>{INSTRUCTION_LIKE_TEXT}</span>
    </p>
  );
}
