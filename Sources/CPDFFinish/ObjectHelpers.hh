// Small questions asked of qpdf objects.
#ifndef FOLIO_OBJECT_HELPERS_HH
#define FOLIO_OBJECT_HELPERS_HH

// qpdf 11: use std::shared_ptr throughout, not the deprecated PointerHolder.
#ifndef POINTERHOLDER_TRANSITION
#define POINTERHOLDER_TRANSITION 4
#endif
#include <qpdf/QPDFObjectHandle.hh>

#include <string>
#include <vector>

namespace folio_finish {

inline std::vector<QPDFObjectHandle> kidsOf(QPDFObjectHandle node) {
    std::vector<QPDFObjectHandle> kids;
    QPDFObjectHandle k = node.getKey("/K");
    if (k.isArray()) {
        for (int index = 0; index < k.getArrayNItems(); ++index) kids.push_back(k.getArrayItem(index));
    } else if (!k.isNull()) {
        kids.push_back(k);
    }
    return kids;
}

inline bool hasName(QPDFObjectHandle node, std::string const &key, std::string const &name) {
    QPDFObjectHandle value = node.getKey(key);
    return value.isName() && value.getName() == name;
}

} // namespace folio_finish

#endif
