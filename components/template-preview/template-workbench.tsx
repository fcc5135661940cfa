'use client';

import { useDeferredValue, useId, type ReactNode } from 'react';
import { CopyButton } from '@/components/json';
import { renderTemplate, type TemplateDialect } from '@/lib/session-service/template';
import type { SpelledJson } from '@/lib/session-service/json-spelling';
import { MAX_TEMPLATE_LENGTH } from '@/lib/validation/limits';
import { PlaceholderTable } from './placeholder-table';
import { RenderedTemplate } from './rendered-template';
import { Textarea } from '@/components/ui/input';
import type { PreviewState } from './use-preview-state';
import type { TemplateUrlState } from './use-template-url';
import { Label } from '@/components/ui/label';
import { Segmented, type SegmentOption } from '@/components/ui/segmented';

export const EXAMPLE_TEMPLATE = 'You are helping {user:name} with {topic}. {app:tone?}';

interface TemplateWorkbenchProps {
  /** The template and dialect, kept in the URL (use-template-url.ts). */
  url: TemplateUrlState;
  /** The state to render against; null while it loads or when it cannot be read (then `problem` says why). */
  against: Pick<PreviewState, 'state' | 'problem'> & {
    /** `state` as written in JSON text, when it was typed (keeps `2.0` a float in the Python dialect). */
    written: SpelledJson | null;
  };
  /** Where the state comes from, and any control to change it (shown above the output). */
  source: ReactNode;
  /** False when what is previewed is too long to keep in the URL (default: when the template is). */
  shareable?: boolean;
  /** The state is on its way (otherwise a missing state just means none was chosen). */
  loading?: boolean;
  /** Level of the output's headings: 2 on a page of its own, 3 (the default) inside a page section. */
  headingLevel?: 2 | 3;
}

const DIALECTS: SegmentOption<TemplateDialect>[] = [
  { value: 'python', label: 'ADK Python', title: 'None → empty, True/False, dicts as Python repr' },
  { value: 'typescript', label: 'ADK TypeScript', title: 'null, true/false, objects as JSON' },
];

/**
 * An instruction template rendered the way ADK injects session state:
 * the text the agent would read, each placeholder marked (resolved with its
 * value and tier, optional and missing, missing with ADK's error, left as
 * written), in the value rendering of ADK's Python or TypeScript port.
 */
export function TemplateWorkbench(props: TemplateWorkbenchProps) {
  const { url, against, source, shareable = url.shareable, loading = true } = props;
  const { template, dialect } = url;
  const { state, problem: stateProblem } = against;
  const templateId = useId();
  const deferred = useDeferredValue(template);
  const tooLong = template.length > MAX_TEMPLATE_LENGTH;
  const Heading = props.headingLevel === 2 ? 'h2' : 'h3';
  const result = state && !tooLong ? renderTemplate(deferred, state, { dialect, artifacts: null, written: against.written }) : null;

  return (
    <div className="space-y-4">
      <div>
        <Label htmlFor={templateId} className="text-sm text-foreground">
          Instruction template
        </Label>
        <p className="text-xs text-muted">
          <code>{'{key}'}</code> inserts a state value, <code>{'{key?}'}</code> inserts nothing when it is missing; keys may start with{' '}
          <code>app:</code>, <code>user:</code> or <code>temp:</code>.
        </p>
        <Textarea
          id={templateId}
          value={template}
          onChange={(event) => url.setTemplate(event.target.value)}
          rows={Math.min(12, Math.max(3, template.split('\n').length + 1))}
          spellCheck={false}
          placeholder={EXAMPLE_TEMPLATE}
          aria-invalid={tooLong || undefined}
          className="mt-1 block w-full px-2 py-1.5 font-mono text-sm"
        />
        {tooLong ? (
          <p className="mt-1 text-xs font-medium text-danger">
            The template is {template.length.toLocaleString('en')} characters, over the {MAX_TEMPLATE_LENGTH.toLocaleString('en')}-character
            limit.
          </p>
        ) : null}
        {!shareable && !tooLong ? (
          <p className="mt-1 text-xs text-warning">This template is too long to keep in the address bar: copy it to share the preview.</p>
        ) : null}
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 max-w-full text-sm">{source}</div>
        <Segmented label="Value rendering" options={DIALECTS} value={dialect} onChange={url.setDialect} />
      </div>

      {stateProblem ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
          {stateProblem}
        </p>
      ) : !result ? (
        tooLong || !loading ? null : (
          <p className="text-sm text-muted">Loading the state…</p>
        )
      ) : (
        <>
          {result.error ? (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
              ADK would fail with: <code className="font-semibold">{result.error}</code>
              <span className="block text-xs">
                ADK raises this before the model is called, so the agent does not run. The rest of the template is shown below for
                reference.
              </span>
            </p>
          ) : (
            <p role="status" className="text-sm text-success">
              ADK renders this instruction without errors.
            </p>
          )}
          <div>
            <div className="mb-1 flex items-center justify-between">
              <Heading className="text-sm font-medium">Rendered instruction</Heading>
              <CopyButton text={() => result.text} label="Copy the rendered instruction" />
            </div>
            <RenderedTemplate template={deferred} result={result} />
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer text-muted hover:text-foreground">Exact text, as the agent receives it</summary>
              <pre
                data-testid="rendered-text"
                className="mt-1 whitespace-pre-wrap break-words rounded-md border border-border bg-background px-3 py-2 font-mono text-sm"
              >
                {result.text}
              </pre>
            </details>
          </div>
          <div>
            <Heading className="mb-1 text-sm font-medium">Placeholders</Heading>
            <PlaceholderTable placeholders={result.placeholders} />
          </div>
        </>
      )}
    </div>
  );
}
