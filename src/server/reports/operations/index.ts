/**
 * The operations report family (SPEC.md §1: tickets, cancellations, corrections, losses), in
 * the order bo/rapport/metrics lists them; registry.ts spreads it into the registry.
 */
import type { ReportClass } from '../types.ts';
import { cancellationsReport } from './cancellations.ts';
import { correctionsReport } from './corrections.ts';
import { lossesReport } from './losses.ts';
import { ticketsReport } from './tickets.ts';

export const OPERATIONS_REPORTS: readonly ReportClass[] = [
  ticketsReport,
  cancellationsReport,
  correctionsReport,
  lossesReport,
];
