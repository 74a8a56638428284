'use client';

import clsx from 'clsx';
import {
  type FormEvent,
  type KeyboardEvent,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from 'react';
import { SendIcon, StopIcon } from '@/components/icons';
import type { AgentMode, AnswerStyle } from '@/lib/agent/types';
import { type BucketOption, type ChatFilters, type DocumentOption, FilterChips, FilterPicker } from './filter-picker';

export interface ComposerHandle {
  setText: (text: string) => void;
  focus: () => void;
}

/** The composer's modes: the agent's two, and research (clarify, plan, several runs, a report). */
export type ChatMode = AgentMode | 'research';

const MODES: Array<{ value: ChatMode; label: string; hint: string }> = [
  {
    value: 'agent',
    label: 'Agent',
    hint: 'Plans, searches several times, opens sources and checks the answer (slower, thorough).',
  },
  { value: 'quick', label: 'Quick', hint: 'One search and a short answer (fast, for simple questions).' },
  {
    value: 'research',
    label: 'Research',
    hint: 'Asks what you mean, proposes a plan you can edit, researches each task and writes a report with sources.',
  },
];

const STYLES: Array<{ value: AnswerStyle; label: string }> = [
  { value: 'concise', label: 'Concise' },
  { value: 'detailed', label: 'Detailed' },
  { value: 'bullet', label: 'Bullets' },
];

/**
 * The question box: Enter sends, Shift+Enter adds a line; mode (Agent/Quick), answer style, filters; Stop while an
 * answer runs. Send is disabled while the box is empty.
 */
export function Composer({
  ref,
  running,
  stopping = false,
  disabled,
  onSend,
  onStop,
  mode,
  onModeChange,
  answerStyle,
  onStyleChange,
  filters,
  onFiltersChange,
  buckets,
  documents,
}: {
  ref?: Ref<ComposerHandle>;
  running: boolean;
  /** Stop was pressed: the page is loading what the server saved. */
  stopping?: boolean;
  disabled: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  mode: ChatMode;
  onModeChange: (m: ChatMode) => void;
  answerStyle: AnswerStyle;
  onStyleChange: (s: AnswerStyle) => void;
  filters: ChatFilters;
  onFiltersChange: (f: ChatFilters) => void;
  buckets: BucketOption[];
  documents: DocumentOption[];
}) {
  const [text, setText] = useState('');
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const styleId = useId();
  const hintId = useId();

  useImperativeHandle(ref, () => ({
    setText: (t: string) => {
      setText(t);
      areaRef.current?.focus();
    },
    focus: () => areaRef.current?.focus(),
  }));

  // Grow with the text up to a limit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, 240)}px`;
  }, [text]);

  const canSend = !running && !disabled && text.trim().length > 0;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form
      onSubmit={submit}
      className="rounded-xl border border-slate-300 bg-white shadow-sm focus-within:border-brand-400 focus-within:ring-2 focus-within:ring-brand-100"
    >
      <FilterChips filters={filters} buckets={buckets} documents={documents} onChange={onFiltersChange} />
      <label htmlFor={`${hintId}-q`} className="sr-only">
        Your question
      </label>
      <textarea
        id={`${hintId}-q`}
        ref={areaRef}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={1}
        maxLength={20_000}
        disabled={disabled}
        placeholder={
          disabled
            ? 'Upload and index a document to ask about it'
            : mode === 'research'
              ? 'What should I research in your documents?'
              : 'Ask about your documents…'
        }
        aria-describedby={hintId}
        className="block max-h-60 w-full resize-none bg-transparent px-3 pt-3 pb-1 text-[0.95rem] outline-none placeholder:text-slate-400 disabled:cursor-not-allowed"
      />
      <p id={hintId} className="sr-only">
        Enter sends, Shift+Enter adds a new line.
      </p>
      <div className="flex flex-wrap items-center gap-2 px-2 pt-1 pb-2">
        <fieldset className="inline-flex rounded-md bg-slate-100 p-0.5" aria-label="Mode">
          {MODES.map((m) => (
            <label
              key={m.value}
              title={m.hint}
              className={clsx(
                'cursor-pointer rounded px-2 py-0.5 text-xs font-medium transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-400',
                mode === m.value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-800',
              )}
            >
              <input
                type="radio"
                name="mode"
                value={m.value}
                checked={mode === m.value}
                onChange={() => onModeChange(m.value)}
                className="sr-only"
              />
              {m.label}
            </label>
          ))}
        </fieldset>
        <label htmlFor={styleId} className="sr-only">
          Answer style
        </label>
        <select
          id={styleId}
          value={answerStyle}
          onChange={(e) => {
            const next = STYLES.find((s) => s.value === e.target.value);
            if (next) onStyleChange(next.value);
          }}
          className="rounded-md border-0 bg-transparent py-1 pr-6 pl-1 text-xs font-medium text-slate-600 hover:bg-slate-100"
        >
          {STYLES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <FilterPicker filters={filters} buckets={buckets} documents={documents} onChange={onFiltersChange} />
        <div className="ml-auto flex items-center gap-2">
          {running ? (
            <button
              type="button"
              onClick={onStop}
              disabled={stopping}
              className="inline-flex items-center gap-1.5 rounded-lg bg-slate-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-900 disabled:cursor-wait disabled:opacity-80"
            >
              <StopIcon className="h-4 w-4" /> {stopping ? 'Stopping…' : 'Stop'}
            </button>
          ) : (
            <button
              type="submit"
              disabled={!canSend}
              className="inline-flex items-center gap-1.5 rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-200 disabled:text-slate-400 disabled:shadow-none"
            >
              Send <SendIcon className="h-4 w-4" />
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
