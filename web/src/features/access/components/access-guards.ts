/** Why the signed-in identity may not use each control of the access page (undefined: it may). */
export interface AccessGuards {
  inviteUsers: string | undefined;
  addIdentity: string | undefined;
  editIdentity: string | undefined;
  removeIdentity: string | undefined;
  /** Creating, editing and deleting additional privileges. */
  editPrivileges: string | undefined;
}
