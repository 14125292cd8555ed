/** The administrator seeded into every test database (already past first login in helpers). */
export const TEST_ADMIN = {
  email: 'admin@sigaf.test',
  password: 'Admin-Secret-1',
  name: 'Ana Administradora',
};
