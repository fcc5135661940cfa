// A store family's facade from its operations: each written once as a
// function of the store's context, bound here to one context. The facade's
// type is the SessionStore interface, so no signature is written twice.

type Operation<C> = (ctx: C, ...args: never[]) => unknown;

export type Bound<C, T extends Record<string, Operation<C>>> = {
  [K in keyof T]: T[K] extends (ctx: C, ...args: infer A) => infer R ? (...args: A) => R : never;
};

export function bindOperations<C, T extends Record<string, Operation<C>>>(ctx: C, operations: T): Bound<C, T> {
  const bound: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(operations)) bound[name] = (...args: never[]) => operation(ctx, ...args);
  return bound as Bound<C, T>;
}
