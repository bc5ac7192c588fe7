'use strict'
