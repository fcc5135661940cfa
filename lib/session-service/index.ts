export * from './errors';
export * from './scope';
export * from './store';
export * from './types';
export { completeEvent, nowSeconds } from './events';
export { appendEvent, applyToSession } from './append';
export * from './operations';
export * from './search';
export * from './state-filter';
