import { ApiOperation } from '@nestjs/swagger';

/**
 * A route's OpenAPI operation: its FastAPI operation id (`<function>_<path>_<method>`, which the
 * generated clients name their calls by), its summary and what it does.
 */
export const Operation = (operationId: string, summary: string, description: string) =>
  ApiOperation({ operationId, summary, description });
