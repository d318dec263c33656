/**
 * The multipart body of an upload. The contract describes a multipart body by its fields, so the
 * generated argument type is an object; on the wire it is a FormData, which the base query sends as
 * it is (the browser writes the boundary). `Body` is the generated type the endpoint expects.
 */
export function filesBody<Body>(files: File | readonly File[], field = 'file'): Body {
  const form = new FormData();
  for (const file of Array.isArray(files) ? files : [files]) form.append(field, file);
  return form as unknown as Body;
}
