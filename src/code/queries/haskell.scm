; Haskell. Capture roles: see query-captures.ts. Earlier patterns win.
; A function's signature and its equations are consecutive declarations of
; one name; the extractor merges them (`mergesClauses`).

; ---- declarations -------------------------------------------------------

(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synomym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type
(class name: (name) @name) @definition.interface
(data_constructor constructor: (prefix name: (constructor) @name)) @definition.constructor
(data_constructor constructor: (record name: (constructor) @name)) @definition.constructor
(data_constructor constructor: (infix operator: (constructor_operator) @name)) @definition.constructor
(newtype_constructor name: (constructor) @name) @definition.constructor
(field name: (field_name (variable) @name)) @definition.field

(class_declarations (signature name: (variable) @name) @definition.method)
(declarations (signature name: (variable) @name) @definition.function)
(declarations (function name: (variable) @name) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)

; An instance holds its methods under the class it implements.
(instance name: (name) @scope.name) @scope
(instance_declarations (function name: (variable) @name) @definition.method)
(instance_declarations (bind name: (variable) @name) @definition.method)

; ---- references ---------------------------------------------------------

(variable) @reference
(name) @reference
(constructor) @reference
(qualified (variable) @reference.member)
(qualified (name) @reference.member)
(qualified (constructor) @reference.member)
(header) @ignore
(imports) @ignore

; ---- parameters and locals ---------------------------------------------

[(function) (lambda) (alternative) (bind)] @local.scope

(patterns (variable) @local.definition)
(patterns (_ (variable) @local.definition))
(lambda patterns: (patterns (variable) @local.definition))
(alternative pattern: (variable) @local.definition)
(local_binds (function name: (variable) @local.definition))
(local_binds (bind name: (variable) @local.definition))
(generator pattern: (variable) @local.definition)
(type_params (variable) @local.definition)

; ---- imports ------------------------------------------------------------

(import) @import
(import module: (module) @import.source)
(import names: (import_list (import_name (variable) @import.name)))
(import names: (import_list (import_name (name) @import.name)))
