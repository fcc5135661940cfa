export { CopyButton } from './copy-button';
export { FoldedString } from './folded-string';
export { JsonPrimitive, JsonTree, type JsonTreeProps } from './json-tree';
export { RowTabStop, useRowTabIndex } from './row-tab-stop';
