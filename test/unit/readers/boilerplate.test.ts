import { describe, expect, it } from "vitest";
import { isBoilerplate } from "../../../src/readers/common/boilerplate.js";

describe("isBoilerplate", () => {
  it.each([
    "SPDX-License-Identifier: Apache-2.0",
    "// SPDX-License-Identifier: MIT",
    "Copyright (c) 2024 Orbit Authors. All rights reserved.",
    "© 2019-2024 Example Corp.",
    "Copyright 2021 The Orbit Authors",
    "Copyright c© 2001–2022 Free Software Foundation, Inc.",
    "Licensed under the Apache License, Version 2.0 (the \"License\"); you may not use this file except in compliance with the License.",
    "Licensed to the Apache Software Foundation (ASF) under one or more contributor license agreements.",
    "Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the \"Software\"), to deal in the Software without restriction.",
    "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.",
    "This program is free software; you can redistribute it and/or modify it under the terms of the GNU General Public License.",
    "This Source Code Form is subject to the terms of the Mozilla Public License, v. 2.0.",
    "Redistribution and use in source and binary forms, with or without modification, are permitted.",
    " * Unless required by applicable law or agreed to in writing, software\n * distributed under the License is distributed on an \"AS IS\" BASIS,",
    "<!-- Copyright (c) 2020 Someone -->",
  ])("recognises %j", (text) => {
    expect(isBoilerplate(text)).toBe(true);
  });

  it.each([
    "This project is released under the MIT licence; see LICENSE.",
    "Copyright law differs between countries.",
    "Permission checks run before every write.",
    "The software is fast.",
    "",
    `Copyright (c) 2024 Orbit. ${"Long prose that goes on. ".repeat(200)}`,
  ])("leaves %j alone", (text) => {
    expect(isBoilerplate(text)).toBe(false);
  });
});
