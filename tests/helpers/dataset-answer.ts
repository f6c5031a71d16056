/**
 * Reads a bo/getReport `format=JSON` answer (an inject response) as the client does: through the
 * contract's DatasetAnswerSchema, rows from arrays of cells in column order to objects by key.
 */
import { type Dataset, DatasetAnswerSchema } from '../../src/contract/reports.ts';

/**
 * The dataset of `res` (a light-my-request response of bo/getReport with format=JSON).
 * @throws ZodError when the body is not a dataset answer (an error answer, say).
 */
export function datasetAnswer(res: { json(): unknown }): Dataset {
  return DatasetAnswerSchema.parse(res.json());
}
