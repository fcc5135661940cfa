// The same page for the store named in the path (/stores/{store}/...): lib/services.ts serves that store to it.
export { default, metadata } from '@/app/audit/page';
