// @nestjs/throttler is CommonJS and require()s @nestjs/common and @nestjs/core, which are ES modules.
// Node allows that, but Jest refuses a require() of an ES module whose graph it is still walking
// (ERR_REQUIRE_CYCLE_MODULE), which is where a test file's imports would meet them. Loaded here first,
// before the test file, they are complete by then.
import '@nestjs/common';
import '@nestjs/core';
