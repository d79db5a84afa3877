/* cormeta.h - the metadata import interface (IMetaDataImport) in C, with the token helpers a
 * profiler needs to turn a FunctionID into "Namespace.Type.Method".
 *
 * Get one with ICorProfilerInfo::GetModuleMetaData(module, ofRead, &IID_IMetaDataImport, &unk)
 * (the IUnknown it returns is the IMetaDataImport) or GetTokenAndMetaDataFromFunction, then
 * GetMethodProps -> GetTypeDefProps (-> GetNestedClassProps for nested types), and Release.
 *
 * Name getters truncate into the caller's buffer and return CLDB_S_TRUNCATION, a *success*
 * code: test results with FAILED(), not `!= S_OK`. Counts are UTF-16 code units including
 * the NUL. Enumerations use an HCORENUM that starts as NULL and must be closed with
 * CloseEnum.
 *
 * All 62 methods are present in vtable order. The ones a profiler rarely needs are declared
 * as `void *` placeholders (named, so the slot numbering stays visible); cast one to the right
 * function pointer type before calling it.
 */
#ifndef CLRPROF_CORMETA_H
#define CLRPROF_CORMETA_H

#include "corprof_misc.h"
#include "corprof_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tokens ------------------------------------------------------------------------------ */

/* The table a token belongs to (its top byte). */
typedef ULONG32 CorTokenType;
#define mdtModule 0x00000000u
#define mdtTypeRef 0x01000000u
#define mdtTypeDef 0x02000000u
#define mdtFieldDef 0x04000000u
#define mdtMethodDef 0x06000000u
#define mdtParamDef 0x08000000u
#define mdtInterfaceImpl 0x09000000u
#define mdtMemberRef 0x0a000000u
#define mdtCustomAttribute 0x0c000000u
#define mdtPermission 0x0e000000u
#define mdtSignature 0x11000000u
#define mdtEvent 0x14000000u
#define mdtProperty 0x17000000u
#define mdtModuleRef 0x1a000000u
#define mdtTypeSpec 0x1b000000u
#define mdtAssembly 0x20000000u
#define mdtAssemblyRef 0x23000000u
#define mdtFile 0x26000000u
#define mdtExportedType 0x27000000u
#define mdtManifestResource 0x28000000u
#define mdtGenericParam 0x2a000000u
#define mdtMethodSpec 0x2b000000u
#define mdtGenericParamConstraint 0x2c000000u
#define mdtString 0x70000000u
#define mdtName 0x71000000u
#define mdtBaseType 0x72000000u

#define RidFromToken(tk) ((RID)((tk)&0x00ffffffu))
#define TypeFromToken(tk) ((ULONG32)((tk)&0xff000000u))
#define TokenFromRid(rid, tktype) ((mdToken)((rid) | (tktype)))
#define IsNilToken(tk) (RidFromToken(tk) == 0)

#define mdTokenNil ((mdToken)0)
#define mdModuleNil ((mdModule)mdtModule)
#define mdTypeRefNil ((mdTypeRef)mdtTypeRef)
#define mdTypeDefNil ((mdTypeDef)mdtTypeDef)
#define mdFieldDefNil ((mdFieldDef)mdtFieldDef)
#define mdMethodDefNil ((mdMethodDef)mdtMethodDef)
#define mdMemberRefNil ((mdMemberRef)mdtMemberRef)
#define mdTypeSpecNil ((mdTypeSpec)mdtTypeSpec)

/* GetModuleMetaData dwOpenFlags (CorOpenFlags). */
#define ofRead 0x00000000u
#define ofWrite 0x00000001u
#define ofNoTransform 0x00001000u

/* Success, with the name cut to fit the caller's buffer. */
#define CLDB_S_TRUNCATION ((HRESULT)0x00131106)

/* An enumeration in progress; start with NULL, finish with CloseEnum. */
typedef void *HCORENUM;
typedef const char *MDUTF8CSTR;   /* UTF-8 string owned by the metadata */
typedef const void *UVCP_CONSTANT; /* a constant's value blob */

/* ---- IMetaDataImport ---------------------------------------------------------------------- */

CLRPROF_UNUSED static const IID IID_IMetaDataImport =
    {0x7DAC8207, 0xD3AE, 0x4C75, {0x9B, 0x67, 0x92, 0x80, 0x1A, 0x49, 0x7D, 0x44}};
/* IMetaDataImport2 extends IMetaDataImport (generics); only its IID is bound here. */
CLRPROF_UNUSED static const IID IID_IMetaDataImport2 =
    {0xFCE5EFA0, 0x8BBA, 0x4F8E, {0xA0, 0x36, 0x8F, 0x20, 0x22, 0xB0, 0x84, 0x66}};

CLRPROF_DECLARE_INTERFACE(IMetaDataImport)
typedef struct IMetaDataImportVtbl {
    CLRPROF_IUNKNOWN_METHODS(IMetaDataImport)
    /* 3 */
    void (*CloseEnum)(IMetaDataImport *This, HCORENUM hEnum);
    HRESULT (*CountEnum)(IMetaDataImport *This, HCORENUM hEnum, ULONG *pulCount);
    HRESULT (*ResetEnum)(IMetaDataImport *This, HCORENUM hEnum, ULONG ulPos);
    HRESULT (*EnumTypeDefs)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef rTypeDefs[],
                            ULONG cMax, ULONG *pcTypeDefs);
    HRESULT (*EnumInterfaceImpls)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef td,
                                  mdInterfaceImpl rImpls[], ULONG cMax, ULONG *pcImpls);
    HRESULT (*EnumTypeRefs)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeRef rTypeRefs[],
                            ULONG cMax, ULONG *pcTypeRefs);
    HRESULT (*FindTypeDefByName)(IMetaDataImport *This, LPCWSTR szTypeDef,
                                 mdToken tkEnclosingClass, mdTypeDef *ptd);
    /* 10 */
    HRESULT (*GetScopeProps)(IMetaDataImport *This, WCHAR szName[], ULONG cchName,
                             ULONG *pchName, GUID *pmvid);
    HRESULT (*GetModuleFromScope)(IMetaDataImport *This, mdModule *pmd);
    /* szTypeDef receives the namespace-qualified name; ptkExtends the base type token. */
    HRESULT (*GetTypeDefProps)(IMetaDataImport *This, mdTypeDef td, WCHAR szTypeDef[],
                               ULONG cchTypeDef, ULONG *pchTypeDef, DWORD *pdwTypeDefFlags,
                               mdToken *ptkExtends);
    HRESULT (*GetInterfaceImplProps)(IMetaDataImport *This, mdInterfaceImpl iiImpl,
                                     mdTypeDef *pClass, mdToken *ptkIface);
    HRESULT (*GetTypeRefProps)(IMetaDataImport *This, mdTypeRef tr, mdToken *ptkResolutionScope,
                               WCHAR szName[], ULONG cchName, ULONG *pchName);
    HRESULT (*ResolveTypeRef)(IMetaDataImport *This, mdTypeRef tr, REFIID riid,
                              IUnknown **ppIScope, mdTypeDef *ptd);
    HRESULT (*EnumMembers)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef cl,
                           mdToken rMembers[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumMembersWithName)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef cl,
                                   LPCWSTR szName, mdToken rMembers[], ULONG cMax,
                                   ULONG *pcTokens);
    HRESULT (*EnumMethods)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef cl,
                           mdMethodDef rMethods[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumMethodsWithName)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef cl,
                                   LPCWSTR szName, mdMethodDef rMethods[], ULONG cMax,
                                   ULONG *pcTokens);
    /* 20 */
    HRESULT (*EnumFields)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef cl,
                          mdFieldDef rFields[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumFieldsWithName)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef cl,
                                  LPCWSTR szName, mdFieldDef rFields[], ULONG cMax,
                                  ULONG *pcTokens);
    HRESULT (*EnumParams)(IMetaDataImport *This, HCORENUM *phEnum, mdMethodDef mb,
                          mdParamDef rParams[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumMemberRefs)(IMetaDataImport *This, HCORENUM *phEnum, mdToken tkParent,
                              mdMemberRef rMemberRefs[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumMethodImpls)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef td,
                               mdToken rMethodBody[], mdToken rMethodDecl[], ULONG cMax,
                               ULONG *pcTokens);
    void *EnumPermissionSets; /* placeholder */
    HRESULT (*FindMember)(IMetaDataImport *This, mdTypeDef td, LPCWSTR szName,
                          PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob, mdToken *pmb);
    HRESULT (*FindMethod)(IMetaDataImport *This, mdTypeDef td, LPCWSTR szName,
                          PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob, mdMethodDef *pmb);
    HRESULT (*FindField)(IMetaDataImport *This, mdTypeDef td, LPCWSTR szName,
                         PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob, mdFieldDef *pmb);
    HRESULT (*FindMemberRef)(IMetaDataImport *This, mdTypeRef td, LPCWSTR szName,
                             PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob, mdMemberRef *pmr);
    /* 30: the method's name, owning type, signature and RVA. */
    HRESULT (*GetMethodProps)(IMetaDataImport *This, mdMethodDef mb, mdTypeDef *pClass,
                              WCHAR szMethod[], ULONG cchMethod, ULONG *pchMethod,
                              DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                              ULONG *pulCodeRVA, DWORD *pdwImplFlags);
    HRESULT (*GetMemberRefProps)(IMetaDataImport *This, mdMemberRef mr, mdToken *ptk,
                                 WCHAR szMember[], ULONG cchMember, ULONG *pchMember,
                                 PCCOR_SIGNATURE *ppvSigBlob, ULONG *pbSig);
    HRESULT (*EnumProperties)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef td,
                              mdProperty rProperties[], ULONG cMax, ULONG *pcProperties);
    HRESULT (*EnumEvents)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeDef td,
                          mdEvent rEvents[], ULONG cMax, ULONG *pcEvents);
    void *GetEventProps; /* placeholder */
    HRESULT (*EnumMethodSemantics)(IMetaDataImport *This, HCORENUM *phEnum, mdMethodDef mb,
                                   mdToken rEventProp[], ULONG cMax, ULONG *pcEventProp);
    HRESULT (*GetMethodSemantics)(IMetaDataImport *This, mdMethodDef mb, mdToken tkEventProp,
                                  DWORD *pdwSemanticsFlags);
    HRESULT (*GetClassLayout)(IMetaDataImport *This, mdTypeDef td, DWORD *pdwPackSize,
                              COR_FIELD_OFFSET rFieldOffset[], ULONG cMax,
                              ULONG *pcFieldOffset, ULONG *pulClassSize);
    HRESULT (*GetFieldMarshal)(IMetaDataImport *This, mdToken tk,
                               PCCOR_SIGNATURE *ppvNativeType, ULONG *pcbNativeType);
    HRESULT (*GetRVA)(IMetaDataImport *This, mdToken tk, ULONG *pulCodeRVA,
                      DWORD *pdwImplFlags);
    /* 40 */
    void *GetPermissionSetProps; /* placeholder */
    HRESULT (*GetSigFromToken)(IMetaDataImport *This, mdSignature mdSig,
                               PCCOR_SIGNATURE *ppvSig, ULONG *pcbSig);
    HRESULT (*GetModuleRefProps)(IMetaDataImport *This, mdModuleRef mur, WCHAR szName[],
                                 ULONG cchName, ULONG *pchName);
    HRESULT (*EnumModuleRefs)(IMetaDataImport *This, HCORENUM *phEnum,
                              mdModuleRef rModuleRefs[], ULONG cMax, ULONG *pcModuleRefs);
    HRESULT (*GetTypeSpecFromToken)(IMetaDataImport *This, mdTypeSpec typespec,
                                    PCCOR_SIGNATURE *ppvSig, ULONG *pcbSig);
    void *GetNameFromToken; /* placeholder (deprecated by the runtime) */
    HRESULT (*EnumUnresolvedMethods)(IMetaDataImport *This, HCORENUM *phEnum,
                                     mdToken rMethods[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*GetUserString)(IMetaDataImport *This, mdString stk, WCHAR szString[],
                             ULONG cchString, ULONG *pchString);
    HRESULT (*GetPinvokeMap)(IMetaDataImport *This, mdToken tk, DWORD *pdwMappingFlags,
                             WCHAR szImportName[], ULONG cchImportName, ULONG *pchImportName,
                             mdModuleRef *pmrImportDLL);
    HRESULT (*EnumSignatures)(IMetaDataImport *This, HCORENUM *phEnum,
                              mdSignature rSignatures[], ULONG cMax, ULONG *pcSignatures);
    /* 50 */
    HRESULT (*EnumTypeSpecs)(IMetaDataImport *This, HCORENUM *phEnum, mdTypeSpec rTypeSpecs[],
                             ULONG cMax, ULONG *pcTypeSpecs);
    HRESULT (*EnumUserStrings)(IMetaDataImport *This, HCORENUM *phEnum, mdString rStrings[],
                               ULONG cMax, ULONG *pcStrings);
    HRESULT (*GetParamForMethodIndex)(IMetaDataImport *This, mdMethodDef md, ULONG ulParamSeq,
                                      mdParamDef *ppd);
    HRESULT (*EnumCustomAttributes)(IMetaDataImport *This, HCORENUM *phEnum, mdToken tk,
                                    mdToken tkType, mdCustomAttribute rCustomAttributes[],
                                    ULONG cMax, ULONG *pcCustomAttributes);
    HRESULT (*GetCustomAttributeProps)(IMetaDataImport *This, mdCustomAttribute cv,
                                       mdToken *ptkObj, mdToken *ptkType, const void **ppBlob,
                                       ULONG *pcbSize);
    HRESULT (*FindTypeRef)(IMetaDataImport *This, mdToken tkResolutionScope, LPCWSTR szName,
                           mdTypeRef *ptr);
    HRESULT (*GetMemberProps)(IMetaDataImport *This, mdToken mb, mdTypeDef *pClass,
                              WCHAR szMember[], ULONG cchMember, ULONG *pchMember,
                              DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                              ULONG *pulCodeRVA, DWORD *pdwImplFlags, DWORD *pdwCPlusTypeFlag,
                              UVCP_CONSTANT *ppValue, ULONG *pcchValue);
    HRESULT (*GetFieldProps)(IMetaDataImport *This, mdFieldDef mb, mdTypeDef *pClass,
                             WCHAR szField[], ULONG cchField, ULONG *pchField, DWORD *pdwAttr,
                             PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                             DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppValue,
                             ULONG *pcchValue);
    void *GetPropertyProps; /* placeholder */
    HRESULT (*GetParamProps)(IMetaDataImport *This, mdParamDef tk, mdMethodDef *pmd,
                             ULONG *pulSequence, WCHAR szName[], ULONG cchName, ULONG *pchName,
                             DWORD *pdwAttr, DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppValue,
                             ULONG *pcchValue);
    /* 60: S_FALSE when the attribute is absent. */
    HRESULT (*GetCustomAttributeByName)(IMetaDataImport *This, mdToken tkObj, LPCWSTR szName,
                                        const void **ppData, ULONG *pcbData);
    BOOL (*IsValidToken)(IMetaDataImport *This, mdToken tk);
    /* The type that lexically contains a nested type. */
    HRESULT (*GetNestedClassProps)(IMetaDataImport *This, mdTypeDef tdNestedClass,
                                   mdTypeDef *ptdEnclosingClass);
    HRESULT (*GetNativeCallConvFromSig)(IMetaDataImport *This, const void *pvSig, ULONG cbSig,
                                        ULONG *pCallConv);
    HRESULT (*IsGlobal)(IMetaDataImport *This, mdToken pd, int *pbGlobal);
} IMetaDataImportVtbl;

/* ---- layout checks (slot numbers from the reference, section 1.11) ----------------------- */

#define CLRPROF_META_SLOT(m, n)                                                                   \
    CLRPROF_STATIC_ASSERT(offsetof(IMetaDataImportVtbl, m) == (n) * sizeof(void *),               \
                          "IMetaDataImport::" #m " must be slot " #n)

CLRPROF_META_SLOT(QueryInterface, 0);
CLRPROF_META_SLOT(AddRef, 1);
CLRPROF_META_SLOT(Release, 2);
CLRPROF_META_SLOT(CloseEnum, 3);
CLRPROF_META_SLOT(CountEnum, 4);
CLRPROF_META_SLOT(ResetEnum, 5);
CLRPROF_META_SLOT(EnumTypeDefs, 6);
CLRPROF_META_SLOT(EnumInterfaceImpls, 7);
CLRPROF_META_SLOT(EnumTypeRefs, 8);
CLRPROF_META_SLOT(FindTypeDefByName, 9);
CLRPROF_META_SLOT(GetScopeProps, 10);
CLRPROF_META_SLOT(GetModuleFromScope, 11);
CLRPROF_META_SLOT(GetTypeDefProps, 12);
CLRPROF_META_SLOT(GetInterfaceImplProps, 13);
CLRPROF_META_SLOT(GetTypeRefProps, 14);
CLRPROF_META_SLOT(ResolveTypeRef, 15);
CLRPROF_META_SLOT(EnumMembers, 16);
CLRPROF_META_SLOT(EnumMembersWithName, 17);
CLRPROF_META_SLOT(EnumMethods, 18);
CLRPROF_META_SLOT(EnumMethodsWithName, 19);
CLRPROF_META_SLOT(EnumFields, 20);
CLRPROF_META_SLOT(EnumFieldsWithName, 21);
CLRPROF_META_SLOT(EnumParams, 22);
CLRPROF_META_SLOT(EnumMemberRefs, 23);
CLRPROF_META_SLOT(EnumMethodImpls, 24);
CLRPROF_META_SLOT(EnumPermissionSets, 25);
CLRPROF_META_SLOT(FindMember, 26);
CLRPROF_META_SLOT(FindMethod, 27);
CLRPROF_META_SLOT(FindField, 28);
CLRPROF_META_SLOT(FindMemberRef, 29);
CLRPROF_META_SLOT(GetMethodProps, 30);
CLRPROF_META_SLOT(GetMemberRefProps, 31);
CLRPROF_META_SLOT(EnumProperties, 32);
CLRPROF_META_SLOT(EnumEvents, 33);
CLRPROF_META_SLOT(GetEventProps, 34);
CLRPROF_META_SLOT(EnumMethodSemantics, 35);
CLRPROF_META_SLOT(GetMethodSemantics, 36);
CLRPROF_META_SLOT(GetClassLayout, 37);
CLRPROF_META_SLOT(GetFieldMarshal, 38);
CLRPROF_META_SLOT(GetRVA, 39);
CLRPROF_META_SLOT(GetPermissionSetProps, 40);
CLRPROF_META_SLOT(GetSigFromToken, 41);
CLRPROF_META_SLOT(GetModuleRefProps, 42);
CLRPROF_META_SLOT(EnumModuleRefs, 43);
CLRPROF_META_SLOT(GetTypeSpecFromToken, 44);
CLRPROF_META_SLOT(GetNameFromToken, 45);
CLRPROF_META_SLOT(EnumUnresolvedMethods, 46);
CLRPROF_META_SLOT(GetUserString, 47);
CLRPROF_META_SLOT(GetPinvokeMap, 48);
CLRPROF_META_SLOT(EnumSignatures, 49);
CLRPROF_META_SLOT(EnumTypeSpecs, 50);
CLRPROF_META_SLOT(EnumUserStrings, 51);
CLRPROF_META_SLOT(GetParamForMethodIndex, 52);
CLRPROF_META_SLOT(EnumCustomAttributes, 53);
CLRPROF_META_SLOT(GetCustomAttributeProps, 54);
CLRPROF_META_SLOT(FindTypeRef, 55);
CLRPROF_META_SLOT(GetMemberProps, 56);
CLRPROF_META_SLOT(GetFieldProps, 57);
CLRPROF_META_SLOT(GetPropertyProps, 58);
CLRPROF_META_SLOT(GetParamProps, 59);
CLRPROF_META_SLOT(GetCustomAttributeByName, 60);
CLRPROF_META_SLOT(IsValidToken, 61);
CLRPROF_META_SLOT(GetNestedClassProps, 62);
CLRPROF_META_SLOT(GetNativeCallConvFromSig, 63);
CLRPROF_META_SLOT(IsGlobal, 64);
CLRPROF_STATIC_ASSERT(sizeof(IMetaDataImportVtbl) == 65 * sizeof(void *),
                      "IMetaDataImport has 65 slots");

#ifdef __cplusplus
}
#endif

#endif
