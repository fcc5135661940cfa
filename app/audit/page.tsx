import type { Metadata } from 'next';
import { AuditPage } from '@/components/audit/audit-page';
import { auditQueryOf } from '@/lib/data/audit-params';
import type { SearchParams } from '@/lib/data/list-params';

export const metadata: Metadata = { title: 'Audit log' };

export default async function Audit({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <AuditPage query={auditQueryOf(await searchParams)} />;
}
