// The compare page's reads, for the signed-in viewer.
import { requireViewer } from '../current-principal';
import type { CompareSide } from '../paths';
import { getStore } from '../services';
import { readCompareChoices, readComparison, type CompareChoice, type Comparison } from './compare';

export async function getComparison(left: CompareSide, right: CompareSide): Promise<Comparison> {
  await requireViewer();
  return readComparison(await getStore(), left, right);
}

export async function getCompareChoices(left: CompareSide): Promise<CompareChoice[]> {
  await requireViewer();
  return readCompareChoices(await getStore(), left);
}
