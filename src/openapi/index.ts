/** The OpenAPI 3.1 document of the API as a config describes it (`harness export openapi`, the /sandbox explorer). */
export { buildOpenApiDocument, type OpenApiOptions } from './document.ts';
export { componentName } from './components.ts';
