/** The pt-BR texts of the two-factor refusals (DESIGN.md §3 error shape; shown by ui/src/auth/twoFactor). */

export const WRONG_CODE = 'Código incorreto. Confira o aplicativo autenticador e tente de novo.';
export const CODE_ALREADY_USED = 'Este código já foi usado. Espere o próximo código aparecer no aplicativo.';
export const BACKUP_CODE_ALREADY_USED = 'Este código de recuperação já foi usado.';
export const CHALLENGE_EXPIRED = 'A verificação expirou. Entre de novo com seu e-mail e senha.';
export const ALREADY_ENABLED = 'A verificação em duas etapas já está ativa.';
export const NOT_ENABLED = 'A verificação em duas etapas não está ativa.';
export const NO_PENDING_SETUP = 'Nenhuma ativação em andamento. Gere um novo QR code e tente de novo.';
export const OWNER_NEEDS_TWO_FACTOR = 'Ative a verificação em duas etapas no seu perfil antes de exigi-la da equipe.';
