/** The counting report classes (issue #3), in the order bo/rapport/metrics lists them. */
import type { ReportClass } from '../types.ts';
import { cashCountReport } from './cash-counts.ts';
import { receiptsReport } from './receipts.ts';
import { safeCountReport } from './safe-counts.ts';

export const COUNTING_REPORTS: readonly ReportClass[] = [cashCountReport, safeCountReport, receiptsReport];
