// A session store whose calls are timed into the metrics and traced as
// spans, by family and kind.
import { countAppend, observeStoreOperation, type StoreOperationKind } from './metrics';
import { inSpan } from './tracing';

/** The store methods that write (SessionStore and SessionOperations); every other async method reads. */
const WRITES = new Set([
  'createSession',
  'deleteSession',
  'append',
  'editState',
  'clearData',
  'forkSession',
  'importSessions',
  'setSessionMeta',
  'prune',
]);
/** Lifecycle and bookkeeping, not traffic. */
const UNMEASURED = new Set(['close', 'ping', 'poolUse', 'constructor']);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * `store` behind a proxy that measures each call returning a promise (methods
 * run on the store itself, not the proxy). Everything else passes through.
 */
export function measuredStore<S extends object>(store: S, family: string): S {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || UNMEASURED.has(property)) return value;
      const cached = wrapped.get(property);
      if (cached) return cached;
      const method = value as (...args: unknown[]) => unknown;
      const kind: StoreOperationKind = WRITES.has(property) ? 'write' : 'read';
      const attributes = { 'statehouse.store.family': family, 'statehouse.store.kind': kind, 'statehouse.store.operation': property };
      const measured = (...args: unknown[]): unknown => {
        const started = performance.now();
        let outcome: 'ok' | 'error' = 'error';
        return inSpan(`store ${property}`, attributes, async () => {
          try {
            const result = method.apply(target, args);
            const resolved = isThenable(result) ? await result : result;
            outcome = 'ok';
            if (property === 'append') countAppend(family);
            return resolved;
          } finally {
            observeStoreOperation({ family, kind, operation: property, outcome }, (performance.now() - started) / 1000);
          }
        });
      };
      wrapped.set(property, measured);
      return measured;
    },
  });
}
