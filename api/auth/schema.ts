import { z } from 'zod';
import {
  PASSWORDS_DIFFER,
  avatar,
  currentPassword,
  email,
  id,
  newPassword,
  opaqueToken,
  phone,
  requiredName,
} from './fields';

/**
 * Request bodies of the operator account calls (SPEC §7), shared by the API and the /user forms.
 * Browser code imports this file: it may import only zod. Unknown fields are rejected ('Campo não permitido.'),
 * except on the member update below.
 */

const confirmationMatches = (path: 'confirmNewPassword') => (v: { newPassword: string; confirmNewPassword: string }, ctx: z.core.$RefinementCtx) => {
  if (v.newPassword !== v.confirmNewPassword) ctx.addIssue({ code: 'custom', path: [path], message: PASSWORDS_DIFFER });
};

export const SignupSchema = z.strictObject({
  name: requiredName(),
  workspace: requiredName(),
  email: email(),
  password: newPassword(6),
  acceptTerms: z.literal(true, { error: 'Você precisa aceitar os termos de uso.' }),
});
export type SignupReq = z.infer<typeof SignupSchema>;

export const LoginSchema = z.strictObject({
  email: email(),
  password: currentPassword(),
});
export type LoginReq = z.infer<typeof LoginSchema>;

export const ForgotPasswordSchema = z.strictObject({
  email: email(),
});
export type ForgotPasswordReq = z.infer<typeof ForgotPasswordSchema>;

export const ResetPasswordSchema = z
  .strictObject({
    newPassword: newPassword(5),
    confirmNewPassword: newPassword(5),
    token: opaqueToken(),
    email: email(),
  })
  .superRefine(confirmationMatches('confirmNewPassword'));
export type ResetPasswordReq = z.infer<typeof ResetPasswordSchema>;

export const ConfirmEmailSchema = z.strictObject({
  token: opaqueToken(),
});
export type ConfirmEmailReq = z.infer<typeof ConfirmEmailSchema>;

export const RenewTokenSchema = z.strictObject({
  renewalToken: opaqueToken(),
  workspaceId: id().optional(),
});
export type RenewTokenReq = z.infer<typeof RenewTokenSchema>;

export const ChangePasswordSchema = z
  .strictObject({
    password: newPassword(6),
    newPassword: newPassword(6),
    confirmNewPassword: newPassword(6),
  })
  .superRefine(confirmationMatches('confirmNewPassword'));
export type ChangePasswordReq = z.infer<typeof ChangePasswordSchema>;

/** E-mail is read-only: a form may send it back unchanged, never a different one. */
export const ProfileUpdateSchema = z.strictObject({
  name: requiredName(),
  phone: phone(),
  avatar: avatar(),
  email: email().optional(),
});
export type ProfileUpdateReq = z.infer<typeof ProfileUpdateSchema>;

export const CompleteRegisterSchema = z.strictObject({
  name: requiredName(),
  email: email(),
  password: newPassword(6),
  token: opaqueToken(),
});
export type CompleteRegisterReq = z.infer<typeof CompleteRegisterSchema>;

/** Body of POST and query of GET /operators/join-workspace (the link's query string). */
export const JoinWorkspaceSchema = z.strictObject({
  operatorId: id(),
  workspaceId: id(),
  token: opaqueToken(),
});
export type JoinWorkspaceReq = z.infer<typeof JoinWorkspaceSchema>;

const invitableLevel = z.union([z.literal(9), z.literal(6), z.literal(3), z.literal(2)], {
  error: (iss) => (iss.input === undefined || iss.input === null ? 'Campo obrigatório.' : 'Nível de acesso inválido.'),
});

export const InviteOperatorSchema = z.strictObject({
  name: requiredName(),
  email: email(),
  accessLevel: invitableLevel,
  groups: z.array(id(), { error: 'Deve ser uma lista.' }).max(100, 'No máximo 100 grupos.').optional(),
});
export type InviteOperatorReq = z.infer<typeof InviteOperatorSchema>;

/**
 * PUT /operator/:id: level and active flag of a member (the members screen builds on it). A resource save,
 * not an account call: the record the list answered may come back whole (react-admin), so its other fields
 * (id, name, e-mail, groups, workspaceId...) are dropped, never written (docs/decisions.md "Unknown fields").
 */
export const MemberUpdateSchema = z.object({
  accessLevel: invitableLevel.optional(),
  isActive: z.boolean({ error: 'Deve ser verdadeiro ou falso.' }).optional(),
});
export type MemberUpdateReq = z.infer<typeof MemberUpdateSchema>;
