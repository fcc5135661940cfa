'use client';

import { useState } from 'react';
import type { JsonValue } from '@/lib/session-service/types';
import { CopyButton } from './copy-button';
import { FoldedString } from './folded-string';
import { useRowTabIndex } from './row-tab-stop';
import { CHILDREN_PAGE, childEntries, childPath, containerSummary, copyTextOf, isContainer, type JsonContainer } from './json-format';
import { Button } from '@/components/ui/button';

export interface JsonTreeProps {
  value: JsonValue;
  /** Names the value in accessible labels ("Copy user:plan", "Expand user:plan.items"), e.g. its state key. */
  label: string;
  /** Levels open at first: 1 opens the root only, 0 starts collapsed. Default 2. */
  expandDepth?: number;
}

/**
 * A JSON value as a collapsible tree: objects and arrays fold, long strings
 * are cut to their beginning, every node has a copy button (strings copy as
 * text, everything else as indented JSON).
 */
export function JsonTree({ value, label, expandDepth = 2 }: JsonTreeProps) {
  return (
    <div className="min-w-0 font-mono text-xs leading-5">
      <JsonNode value={value} path={label} name={null} depth={0} expandDepth={expandDepth} />
    </div>
  );
}

interface NodeProps {
  value: JsonValue;
  path: string;
  /** The key or index shown before the value; null at the root. */
  name: string | null;
  depth: number;
  expandDepth: number;
}

function JsonNode({ value, path, name, depth, expandDepth }: NodeProps) {
  if (!isContainer(value)) {
    return (
      <div className="group flex min-w-0 items-start gap-1">
        {name !== null ? <NodeName name={name} /> : null}
        <span className="min-w-0 flex-1">
          <JsonPrimitive value={value} label={path} />
        </span>
        <CopyButton text={copyTextOf(value)} label={`Copy ${path}`} className={name === null ? '' : hoverOnly} />
      </div>
    );
  }
  return <JsonBranch value={value} path={path} name={name} depth={depth} expandDepth={expandDepth} />;
}

const hoverOnly = 'opacity-0 group-hover:opacity-100 focus-visible:opacity-100';

function JsonBranch({ value, path, name, depth, expandDepth }: NodeProps & { value: JsonContainer }) {
  const entries = childEntries(value);
  const [open, setOpen] = useState(depth < expandDepth && entries.length > 0);
  const [shown, setShown] = useState(CHILDREN_PAGE);
  const inArray = Array.isArray(value);
  const empty = entries.length === 0;
  const tabIndex = useRowTabIndex();

  return (
    <div className="min-w-0">
      <div className="group flex min-w-0 items-start gap-1">
        <Button
          variant="plain"
          onClick={() => setOpen(!open)}
          disabled={empty}
          aria-expanded={empty ? undefined : open}
          tabIndex={tabIndex}
          className="flex min-w-0 items-start gap-1 rounded text-left hover:bg-surface-muted disabled:cursor-default disabled:opacity-100 disabled:hover:bg-transparent"
        >
          {/* Named by what it shows, after what it does: the visible text stays part of the name. */}
          <span className="sr-only">{`${open ? 'Collapse' : 'Expand'} ${path}: `}</span>
          <span aria-hidden="true" className="w-3 shrink-0 text-muted">
            {empty ? '' : open ? '▾' : '▸'}
          </span>
          {name !== null ? <NodeName name={name} /> : null}
          <span className="text-muted">{empty ? (inArray ? '[]' : '{}') : open ? (inArray ? '[' : '{') : containerSummary(value)}</span>
        </Button>
        <CopyButton text={() => copyTextOf(value)} label={`Copy ${path}`} className={depth === 0 ? '' : hoverOnly} />
      </div>
      {open ? (
        <>
          <ul className="ml-1.5 border-l border-border pl-3">
            {entries.slice(0, shown).map(([key, child]) => (
              <li key={key}>
                <JsonNode value={child} path={childPath(path, key, inArray)} name={key} depth={depth + 1} expandDepth={expandDepth} />
              </li>
            ))}
          </ul>
          {entries.length > shown ? (
            <Button
              variant="link"
              tabIndex={tabIndex}
              onClick={() => setShown(shown + CHILDREN_PAGE)}
              className="ml-5 rounded px-1 text-[11px]"
            >
              Show {Math.min(CHILDREN_PAGE, entries.length - shown).toLocaleString('en')} more of{' '}
              {(entries.length - shown).toLocaleString('en')} hidden
            </Button>
          ) : null}
          <span aria-hidden="true" className="ml-4 text-muted">
            {inArray ? ']' : '}'}
          </span>
        </>
      ) : null}
    </div>
  );
}

function NodeName({ name }: { name: string }) {
  return (
    <span className="shrink-0 text-foreground/80">
      <bdi>{name}</bdi>:
    </span>
  );
}

/** A string, number, boolean or null, coloured by type. */
export function JsonPrimitive({ value, label }: { value: null | boolean | number | string; label: string }) {
  if (typeof value === 'string') {
    return (
      <span className="text-success">
        <FoldedString text={value} label={label} />
      </span>
    );
  }
  if (typeof value === 'number') return <span className="text-accent">{String(value)}</span>;
  return <span className="text-scope-app">{String(value)}</span>;
}
