/** The methods `-X` takes (RFC 9110 §9, and PATCH of RFC 5789): shared by the declaration (api.ts) and the request (request.ts). */
export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
