export { Provenance, type ProvenanceProps } from './provenance';
export { ScopeBadge } from './scope-badge';
export { matchesKey, StateTable, type StateTableEntry, type StateTableProps } from './state-table';
export { formatSeconds, Timestamp } from './timestamp';
