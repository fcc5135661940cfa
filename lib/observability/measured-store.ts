// A session store whose calls are timed into the metrics, by family and kind.
import { countAppend, observeStoreOperation, type StoreOperationKind } from './metrics';

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
/** Lifecycle, not traffic. */
const UNMEASURED = new Set(['close', 'ping', 'constructor']);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * `store` behind a proxy that times each call returning a promise (methods
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
      const measured = (...args: unknown[]): unknown => {
        const started = performance.now();
        const result = method.apply(target, args);
        if (!isThenable(result)) return result;
        const done = (outcome: 'ok' | 'error') =>
          observeStoreOperation({ family, kind, operation: property, outcome }, (performance.now() - started) / 1000);
        return Promise.resolve(result).then(
          (resolved) => {
            done('ok');
            if (property === 'append') countAppend(family);
            return resolved;
          },
          (error: unknown) => {
            done('error');
            throw error;
          },
        );
      };
      wrapped.set(property, measured);
      return measured;
    },
  });
}
