import '@nestjs/common';
import '@nestjs/core';
