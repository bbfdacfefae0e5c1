import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { twoFactorSchema } from "../../../domain/schemas/auth";
import { CodeFormView, type CodeFormProps } from "./code-form-view";

const constraint = getZodConstraint(twoFactorSchema);
const checkCode = (formData: FormData) => parseWithZod(formData, { schema: twoFactorSchema });

/** The code form checked in the browser too, for the staff two-factor page (the back-office's budget has room for zod). */
export function CodeForm(props: CodeFormProps) {
  return <CodeFormView {...props} constraint={constraint} onValidate={checkCode} />;
}
