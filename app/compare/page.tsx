import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ComparePage } from '@/components/compare/compare-page';
import { compareQueryOf } from '@/lib/data/compare-params';
import type { SearchParams } from '@/lib/data/list-params';

export const metadata: Metadata = { title: 'Compare' };

export default async function Compare({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = compareQueryOf(await searchParams);
  if (!query) notFound();
  return <ComparePage query={query} now={Date.now()} />;
}
