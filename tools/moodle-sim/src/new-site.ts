import { Site, type SimUser } from './site.js';

/** A new site as Moodle installs it: guest (1) and admin (2) users, the front page course (1). */
export function createSite(
  o: {
    sitename?: string;
    shortname?: string;
    summary?: string;
    admin?: Partial<SimUser>;
    timecreated?: number;
  } = {},
): Site {
  const site = new Site();
  if (o.sitename) site.settings.sitename = o.sitename;
  const now = o.timecreated ?? site.now();
  site.addUser({
    id: 1,
    username: 'guest',
    firstname: 'Guest user',
    lastname: ' ',
    email: 'root@localhost',
    restuse: false,
  });
  site.addUser({
    id: 2,
    username: 'admin',
    firstname: 'Admin',
    lastname: 'User',
    email: 'admin@example.com',
    siteadmin: true,
    ...o.admin,
  });
  site.useId('context', 2);
  const front = site.addCourse(
    {
      id: 1,
      shortname: o.shortname ?? 'moodle',
      fullname: site.settings.sitename,
      categoryid: 0,
      sortorder: 1,
      summary: o.summary ?? '',
      format: 'site',
      newsitems: 3,
      startdate: 0,
      enddate: 0,
      timecreated: now,
      timemodified: now,
      enablecompletion: 0,
      contextid: 2,
      cacherev: now,
      showcompletionconditions: null,
      formatoptions: [{ name: 'numsections', value: 1 }],
      enrolmethods: [],
    },
    0,
  );
  site.courses = site.courses.filter((c) => c !== front);
  site.siteCourse = front;
  return site;
}
